/**
 * Start-up cost: `npm start` right after `npm run build` with the same settings serves
 * the build at once instead of building again.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { OWN_STACK_TIMEOUT_MS, ROOT, forgetBuild, freePort, stackEnv, startStack } from '../support/stack.ts';

function npmRunBuild(env: NodeJS.ProcessEnv): Promise<{ code: number | null; output: string }> {
  const child = spawn('npm', ['run', 'build'], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, output })));
}

describe('start-up cost', { timeout: OWN_STACK_TIMEOUT_MS * 2 }, () => {
  test('start-up: npm start right after npm run build with the same settings does not build again', async () => {
    const port = await freePort();
    const baseUrl = `http://127.0.0.1:${port}`;
    const distDir = await mkdtemp(path.join(tmpdir(), 'start-cost-dist-'));
    try {
      const built = await npmRunBuild(stackEnv({ BASE_URL: baseUrl, DIST_DIR: distDir }));
      expect(built.code, built.output).toBe(0);
      const started = performance.now();
      const stack = await startStack({ port, distDir, baseUrl, env: { LOG_FORMAT: 'json' } });
      const ms = performance.now() - started;
      await stack.stop();
      expect(stack.output()).not.toMatch(/building the site/);
      expect(stack.output()).toMatch(/\(current, not rebuilt\)/);
      console.log(`npm start after npm run build: serving after ${ms.toFixed(0)} ms`);
    } finally {
      await Promise.all([rm(distDir, { recursive: true, force: true }), forgetBuild(distDir)]);
    }
  });
});
