import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));

function run(script: string, env: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string }> {
  // vitest exports BASE_URL=/ (Vite's import.meta.env) to the environment: set a valid one.
  const base = { ...process.env, BASE_URL: 'http://127.0.0.1:4321', LOG_REQUESTS: 'false' };
  const child = spawn(process.execPath, [script], { cwd: root, env: { ...base, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => (stdout += chunk));
  child.stderr.on('data', (chunk) => (stderr += chunk));
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr })));
}

// Each case is a process of its own that exits at its first check: they run side by side.
describe.concurrent('start-up refusal on bad configuration', () => {
  test.each(['scripts/start.ts', 'api/front/main.ts'])('config: %s with PORT=abc -> non-zero exit, stderr names PORT', async (script) => {
    const { code, stdout, stderr } = await run(script, { PORT: 'abc' });
    expect(code).not.toBe(0);
    expect(stderr).toMatch(/PORT="abc"/);
    expect(stdout).not.toMatch(/listening on/);
  });

  test('config: every bad variable is named at once', async () => {
    const { code, stderr } = await run('scripts/start.ts', { PORT: '70000', BASE_URL: 'not a url', LOG_REQUESTS: 'maybe' });
    expect(code).not.toBe(0);
    for (const name of ['PORT', 'BASE_URL', 'LOG_REQUESTS']) expect(stderr).toContain(`${name}=`);
  });

  test('config: TRUST_PROXY with an address that is not one -> refused, naming TRUST_PROXY', async () => {
    const { code, stderr } = await run('api/front/main.ts', { TRUST_PROXY: '10.0.0.0/99', DIST_DIR: '/nonexistent' });
    expect(code).not.toBe(0);
    expect(stderr).toContain('TRUST_PROXY');
  });
});
