/**
 * Fail fast: `npm start` checks every port it will listen on and the data directory
 * before the site build starts, and a problem names the variable to change.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ROOT, stackEnv } from '../support/stack.ts';

let temp: string;
let held: net.Server;
let heldPort: number;

beforeAll(async () => {
  temp = await mkdtemp(path.join(tmpdir(), 'fail-fast-'));
  await writeFile(path.join(temp, 'a-file'), '');
  held = net.createServer();
  await new Promise<void>((resolve) => held.listen(0, '127.0.0.1', resolve));
  heldPort = (held.address() as net.AddressInfo).port;
});
afterAll(async () => {
  await new Promise((resolve) => held.close(resolve));
  await rm(temp, { recursive: true, force: true });
});

/** start.ts with an empty DIST_DIR: were the checks late, a build would start first. */
function start(settings: Record<string, string>): Promise<{ code: number | null; stderr: string; output: string }> {
  const env = stackEnv({ BASE_URL: 'http://127.0.0.1:4321', HOST: '127.0.0.1', PORT: '0', DIST_DIR: path.join(temp, 'dist'), DATA_DIR: path.join(temp, 'data'), ...settings });
  const child = spawn(process.execPath, [path.join(ROOT, 'scripts', 'start.ts')], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => ((stderr += chunk), (output += chunk)));
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stderr, output })));
}

// Each case is a start.ts of its own that exits at its first check: they run side by side.
describe.concurrent('npm start fails fast', () => {
  test.each([
    ['PORT in use', () => ({ PORT: String(heldPort) }), /PORT=\d+: 127\.0\.0\.1:\d+ is already in use; choose another PORT\./],
    ['SIDECAR_PORT in use (SIDECAR_LISTEN=tcp)', () => ({ SIDECAR_LISTEN: 'tcp', SIDECAR_PORT: String(heldPort) }), /SIDECAR_PORT=\d+: .* is already in use; choose another SIDECAR_PORT\./],
    ['METRICS_PORT in use', () => ({ METRICS_PORT: String(heldPort) }), /METRICS_PORT=\d+: .* is already in use; choose another METRICS_PORT\./],
    ['METRICS_PORT equal to PORT', () => ({ PORT: '45999', METRICS_PORT: '45999' }), /METRICS_PORT and PORT are both 45999: give METRICS_PORT another port\./],
    ['DATA_DIR is a file', () => ({ DATA_DIR: path.join(temp, 'a-file') }), /DATA_DIR=.*a-file: is not a directory; set DATA_DIR/],
    ['DATA_DIR cannot be created', () => ({ DATA_DIR: path.join(temp, 'a-file', 'data') }), /DATA_DIR=.*a-file\/data: is not a directory; set DATA_DIR/],
  ])('fail fast: %s -> exit 1 before any build, naming the variable', async (_name, settings, message) => {
    const { code, stderr, output } = await start(settings());
    expect(code).toBe(1);
    expect(stderr).toMatch(message);
    expect(output).not.toMatch(/building the site/);
  });
});
