import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { superviseSidecar } from '../../api/start/supervisor.ts';

/** A stand-in sidecar speaking the same protocol: IPC ready message, SIGTERM to stop. */
const FAKE_SIDECAR = `
import http from 'node:http';
if (process.env.FAKE_FAIL) process.exit(3);
const server = http.createServer((req, res) => res.end(String(process.pid)));
if (process.env.FAKE_SOCKET) server.listen(process.env.FAKE_SOCKET, () => process.send({ type: 'ready', url: 'unix:' + process.env.FAKE_SOCKET, socketPath: process.env.FAKE_SOCKET }));
else server.listen(0, '127.0.0.1', () => process.send({ type: 'ready', url: 'http://127.0.0.1:' + server.address().port }));
process.on('SIGTERM', () => server.close(() => process.exit(0)));
`;

let dir: string;
let entry: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'supervisor-'));
  entry = path.join(dir, 'fake-sidecar.mjs');
  await writeFile(entry, FAKE_SIDECAR);
});
afterAll(() => rm(dir, { recursive: true, force: true }));

const ask = async (s: ReturnType<typeof superviseSidecar>) => {
  const up = s.upstream();
  if (!up) throw new Error('no upstream');
  if ('socketPath' in up) throw new Error('a socket upstream');
  return (await fetch(`http://${up.host}:${up.port}/`)).text();
};

// Each case supervises a child of its own: they run side by side, as a start mostly waits on the child.
describe.concurrent('sidecar supervisor', () => {
  test('supervisor: start resolves when the child reports ready; its address becomes the upstream', async () => {
    const logs: string[] = [];
    const s = superviseSidecar({ entry, env: process.env, log: (l) => logs.push(l) });
    await s.start();
    expect(await ask(s)).toBe(String(s.pid()));
    await s.stop();
    expect(s.upstream()).toBeUndefined();
    expect(logs).toEqual([]);
  });

  test('supervisor: a child ready on a Unix domain socket becomes a socket upstream', async () => {
    const socketPath = path.join(dir, 'fake.sock');
    const s = superviseSidecar({ entry, env: { ...process.env, FAKE_SOCKET: socketPath }, log: () => {} });
    await s.start();
    expect(s.upstream()).toEqual({ socketPath });
    await s.stop();
  });

  test('supervisor: a child that dies is restarted, the death is logged, and meanwhile there is no upstream', async () => {
    const logs: string[] = [];
    const s = superviseSidecar({ entry, env: process.env, log: (l) => logs.push(l), initialDelayMs: 20 });
    await s.start();
    const first = s.pid()!;
    process.kill(first, 'SIGKILL');
    await vi.waitFor(() => expect(s.upstream()).toBeUndefined(), { timeout: 5_000, interval: 5 });
    await vi.waitFor(() => expect(s.upstream()).toBeDefined(), { timeout: 5_000, interval: 10 });
    expect(s.pid()).not.toBe(first);
    expect(await ask(s)).toBe(String(s.pid()));
    expect(logs[0]).toMatch(/sidecar exited with signal SIGKILL; restarting in 20 ms/);
    await s.stop();
  });

  test('supervisor: a child that fails at start-up (bad config, lock held) makes start() reject', async () => {
    const s = superviseSidecar({ entry, env: { ...process.env, FAKE_FAIL: '1' }, log: () => {} });
    await expect(s.start()).rejects.toThrow('sidecar exited with code 3 before it was ready');
  });

  test('supervisor: stop sends SIGTERM, waits for the exit, and does not restart', async () => {
    const logs: string[] = [];
    const s = superviseSidecar({ entry, env: process.env, log: (l) => logs.push(l), initialDelayMs: 1 });
    await s.start();
    const pid = s.pid()!;
    await s.stop();
    expect(() => process.kill(pid, 0)).toThrow();
    expect(s.pid()).toBeUndefined();
    expect(logs).toEqual([]);
  });
});
