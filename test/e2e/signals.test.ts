/**
 * Signals: `npm start` stops cleanly whether SIGTERM goes to the npm process, to the node process,
 * or to the whole process group (what Docker, systemd or pm2 do), or SIGINT to the group (a
 * terminal's Ctrl-C): a request in flight finishes, the store is released (its lock file is gone), both
 * processes are gone and nothing listens on the port afterwards.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, inject, test, vi } from 'vitest';
import { requestInFlight } from '../support/in-flight.ts';
import { OWN_STACK_TIMEOUT_MS, ROOT, childPids, freePort, stackEnv } from '../support/stack.ts';

const shared = inject('stack');
const READY = /^listening on |"msg":"listening on /m;

/** `every`: each process at once, sidecar included, as systemd's KillMode=control-group does. */
type Target = 'npm' | 'node' | 'group' | 'every';

interface NpmStart {
  npm: number;
  node: number;
  sidecar: number;
  port: number;
  dataDir: string;
  output(): string;
  exited: Promise<number | null>;
  kill(): void;
}

async function npmStart(): Promise<NpmStart> {
  const port = await freePort();
  const dataDir = await mkdtemp(path.join(tmpdir(), 'signals-data-'));
  const env = stackEnv({ BASE_URL: shared.baseUrl, DIST_DIR: shared.distDir, DATA_DIR: dataDir, HOST: '127.0.0.1', PORT: String(port), LOG_FORMAT: 'json', RATE_LIMIT_STANDARD: '1000' });
  // Detached: npm leads its own process group, as under a process manager or in a terminal.
  const child = spawn('npm', ['start'], { cwd: ROOT, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const kill = () => {
    try {
      process.kill(-child.pid!, 'SIGKILL');
    } catch {}
  };
  try {
    await vi.waitFor(() => expect(output).toMatch(READY), { timeout: 60_000, interval: 20 });
  } catch (error) {
    kill();
    throw new Error(`npm start did not start:\n${output}`, { cause: error });
  }
  const node = (await childPids(child.pid!))[0];
  const sidecar = (await childPids(node))[0];
  return { npm: child.pid!, node, sidecar, port, dataDir, output: () => output, exited, kill };
}

function refusesConnections(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => (socket.destroy(), resolve(false)));
    socket.once('error', () => resolve(true));
  });
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

// Every case starts its own `npm start` on its own port and data directory and shares nothing with
// the others: they run side by side, as a start mostly waits on I/O.
describe.concurrent('npm start stops cleanly on every signal path', { timeout: OWN_STACK_TIMEOUT_MS }, () => {
  const TO: Record<Target, string> = {
    npm: 'the npm process',
    node: 'the node process',
    group: 'the process group',
    every: 'every process, sidecar included',
  };
  // The front and the sidecar handle SIGINT and SIGTERM alike; what differs is the way a signal
  // arrives: SIGTERM on each way a process manager sends it, SIGINT as a terminal's Ctrl-C does.
  const cases = [
    ...(['npm', 'node', 'group', 'every'] as const).map((target) => ['SIGTERM', TO[target], target] as const),
    ['SIGINT', TO.group, 'group'] as const,
  ];

  test.each(cases)('signals: %s to %s -> request in flight answered, store released, both processes gone, port closed', async (signal, _to, target) => {
    const started = await npmStart();
    try {
      expect(started.sidecar).toBeGreaterThan(0);
      expect(await stat(path.join(started.dataDir, 'sidecar.lock'))).toBeTruthy();
      const inFlight = await requestInFlight(`http://127.0.0.1:${started.port}`);
      if (target === 'npm') process.kill(started.npm, signal);
      else if (target === 'node') process.kill(started.node, signal);
      else if (target === 'group') process.kill(-started.npm, signal);
      else for (const pid of [started.npm, started.node, started.sidecar]) process.kill(pid, signal);
      await vi.waitFor(() => expect(started.output()).toMatch(new RegExp(`${signal}: finishing requests in flight`)), { timeout: 10_000, interval: 5 });
      expect(await inFlight.finish()).toBe(303);
      expect(await started.exited).toBe(0);
      expect(started.output()).not.toMatch(/again: stopping now/);
      expect(started.output()).toMatch(/"msg":"stopped: /);
      for (const pid of [started.node, started.sidecar]) await vi.waitFor(() => expect(alive(pid)).toBe(false), { timeout: 5_000, interval: 10 });
      expect(await refusesConnections(started.port)).toBe(true);
      await expect(stat(path.join(started.dataDir, 'sidecar.lock'))).rejects.toThrow();
    } finally {
      started.kill();
      await rm(started.dataDir, { recursive: true, force: true });
    }
  });
});

describe.concurrent('a signal for the sidecar alone', { timeout: OWN_STACK_TIMEOUT_MS }, () => {
  test('signals: SIGTERM to the sidecar alone -> it stops gracefully and a new one serves; npm start keeps running', async () => {
    const started = await npmStart();
    try {
      const inFlight = await requestInFlight(`http://127.0.0.1:${started.port}`);
      process.kill(started.sidecar, 'SIGTERM');
      expect(await inFlight.finish()).toBe(303);
      await vi.waitFor(async () => expect((await childPids(started.node))[0]).not.toBe(started.sidecar), { timeout: 20_000, interval: 20 });
      await vi.waitFor(() => expect(started.output()).toMatch(/sidecar restarted/), { timeout: 20_000, interval: 20 });
      expect(started.output()).toMatch(/sidecar exited with code 0/);
      expect(alive(started.node)).toBe(true);
      const again = await requestInFlight(`http://127.0.0.1:${started.port}`);
      expect(await again.finish()).toBe(303);
    } finally {
      started.kill();
      await rm(started.dataDir, { recursive: true, force: true });
    }
  });
});
