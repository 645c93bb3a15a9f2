import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, test, vi } from 'vitest';
import { API_PATHS, API_VERSION, ERROR_MESSAGES } from '../../api/contract/index.ts';
import { raw } from '../front/client.ts';
import { requestInFlight } from '../support/in-flight.ts';
import { OWN_STACK_TIMEOUT_MS, ROOT, childPids, forgetBuild, stackEnv, startStack, type RunningStack } from '../support/stack.ts';

const shared = inject('stack');
const own = (env: Record<string, string> = {}, dataDir?: string) => startStack({ distDir: shared.distDir, baseUrl: shared.baseUrl, env, dataDir });

describe('npm start: supervisor and shutdown', { timeout: OWN_STACK_TIMEOUT_MS }, () => {
  // One stack for the cases below, in this order: its sidecar is killed and restarted, a second
  // start on its data directory is refused, and SIGTERM stops it.
  let stack: RunningStack;
  beforeAll(async () => {
    stack = await own({ SIDECAR_HOLD_MS: '20000' });
  }, OWN_STACK_TIMEOUT_MS);
  afterAll(() => stack?.stop());

  test('e2e supervisor: a killed sidecar is restarted; meanwhile API calls wait for it and are answered, pages still work', async () => {
    const pid = (await stack.sidecarPid())!;
    expect(pid).toBeGreaterThan(0);
    process.kill(pid, 'SIGKILL');
    await vi.waitFor(() => expect(() => process.kill(pid, 0)).toThrow(), { timeout: 5_000, interval: 5 });
    const during = raw(stack.url, API_PATHS.status);
    expect((await raw(stack.url, '/')).status).toBe(200);
    // Held while no sidecar runs (SIDECAR_HOLD_MS), then answered by the new one.
    expect((await during).status).toBe(200);
    expect(await stack.sidecarPid()).not.toBe(pid);
    expect(stack.output()).toMatch(/sidecar exited with signal SIGKILL; restarting/);
  });

  test('e2e start-up: a sidecar that cannot start (data directory locked by another stack) stops npm start with its message', async () => {
    const refused = await own({}, stack.dataDir).then(
      (second) => (void second.stop(), undefined),
      (error: Error) => error.message,
    );
    expect(refused).toMatch(/cannot start the API: sidecar exited with code 1 before it was ready/);
    // The sidecar's own explanation reaches the operator too.
    expect(refused).toContain(stack.dataDir);
  });

  test('e2e shutdown: SIGTERM lets a request in flight finish, then both processes exit 0', async () => {
    const sidecar = (await stack.sidecarPid())!;
    const inFlight = await requestInFlight(stack.url);
    // The request is in flight, its body not sent yet, when the signal arrives.
    const exit = stack.stop('SIGTERM');
    await vi.waitFor(() => expect(stack.output()).toMatch(/SIGTERM: finishing requests in flight/), { timeout: 5_000, interval: 5 });
    expect((await raw(stack.url, '/').catch((error: Error) => error)) instanceof Error).toBe(true);
    expect(await inFlight.finish()).toBe(303);
    expect(await exit).toBe(0);
    expect(() => process.kill(sidecar, 0)).toThrow();
  });

  test('e2e start-up: SIGTERM during the build stops the build too; nothing is left running', async () => {
    const dist = await mkdtemp(path.join(tmpdir(), 'stack-dist-'));
    const data = await mkdtemp(path.join(tmpdir(), 'stack-data-'));
    const env = stackEnv({ BASE_URL: shared.baseUrl, PORT: '0', SIDECAR_PORT: '0', DIST_DIR: dist, DATA_DIR: data, LOG_REQUESTS: 'false' });
    const child = spawn(process.execPath, [path.join(ROOT, 'scripts', 'start.ts')], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
    try {
      await vi.waitFor(() => expect(output).toMatch(/building the site/), { timeout: 30_000, interval: 10 });
      const builder = await vi.waitFor(
        async () => {
          const pids = await childPids(child.pid!);
          expect(pids.length).toBeGreaterThan(0);
          return pids[0];
        },
        { timeout: 10_000, interval: 10 },
      );
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
      await vi.waitFor(() => expect(() => process.kill(builder, 0)).toThrow(), { timeout: 10_000, interval: 20 });
      expect(output).not.toMatch(/listening on/);
    } finally {
      child.kill('SIGKILL');
      await Promise.all([rm(dist, { recursive: true, force: true }), rm(data, { recursive: true, force: true }), forgetBuild(dist)]);
    }
  });

});
