/**
 * Where the real sidecar listens (api/sidecar/listen.ts): a Unix socket in DATA_DIR by default,
 * TCP only on request, and then X-Forwarded-For is believed from TRUST_PROXY peers only.
 */
import { mkdir, mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import http from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { loadConfig } from '../../api/config.ts';
import { API_PATHS, ERROR_STATUS } from '../../api/contract/index.ts';
import { listenSidecar } from '../../api/sidecar/listen.ts';
import { runToEnd, startSidecar, type Running } from '../api/support/process.ts';

let dir: string;
const started: Running[] = [];
beforeAll(async () => {
  // Short: a Unix socket path has at most ~104 bytes.
  dir = await mkdtemp(path.join(tmpdir(), 'sl-'));
});
afterAll(async () => {
  for (const sidecar of started) sidecar.child.kill('SIGKILL');
  await Promise.all(started.map((s) => s.exited));
  await rm(dir, { recursive: true, force: true });
});

async function sidecar(env: Record<string, string>): Promise<Running> {
  const running = await startSidecar({ SIDECAR_LISTEN: '', ...env });
  started.push(running);
  return running;
}

function overSocket(socketPath: string, target: string): Promise<number> {
  return new Promise((resolve, reject) => {
    http.get({ socketPath, path: target, agent: false }, (res) => (res.resume(), resolve(res.statusCode ?? 0))).on('error', reject);
  });
}

// Each case has a data directory of its own: they run side by side, as a start mostly waits on I/O.
describe.concurrent('sidecar listening', { timeout: 30_000 }, () => {
  test('default: a Unix socket DATA_DIR/sidecar.sock with mode 0600 that answers HTTP, and a unix: ready URL', async () => {
    const data = path.join(dir, 'a');
    const running = await sidecar({ DATA_DIR: data });
    const socketPath = path.join(data, 'sidecar.sock');
    expect(running.url).toBe(`unix:${socketPath}`);
    const info = await stat(socketPath);
    expect(info.isSocket()).toBe(true);
    expect(info.mode & 0o777).toBe(0o600);
    expect(await overSocket(socketPath, API_PATHS.status)).toBe(200);
  });

  test('default: a socket left by a killed sidecar (SIGKILL) is taken over by the next start', async () => {
    const data = path.join(dir, 'b');
    const first = await sidecar({ DATA_DIR: data });
    first.child.kill('SIGKILL');
    await first.exited;
    const second = await sidecar({ DATA_DIR: data });
    expect(await overSocket(path.join(data, 'sidecar.sock'), API_PATHS.status)).toBe(200);
    expect(second.url).toBe(first.url);
  });

  test('default: a file in the way of the socket -> refused with a message naming it', async () => {
    const data = path.join(dir, 'c');
    await mkdir(data, { mode: 0o700 });
    await writeFile(path.join(data, 'sidecar.sock'), 'not a socket');
    const result = await runToEnd('api/sidecar/main.ts', [], { DATA_DIR: data, SIDECAR_LISTEN: 'socket' });
    expect(result.code).toBe(1);
    expect(result.stdout + result.stderr).toMatch(/sidecar\.sock exists and is not a socket/);
  });

  test('default: a DATA_DIR too long for a socket path -> refused with a message naming the way out', async () => {
    const result = await runToEnd('api/sidecar/main.ts', [], { DATA_DIR: path.join(dir, 'd'.repeat(120)), SIDECAR_LISTEN: 'socket' });
    expect(result.code).toBe(1);
    expect(result.stdout + result.stderr).toMatch(/longer than \d+ bytes.*SIDECAR_LISTEN=tcp/);
  });

  test('SIDECAR_LISTEN=tcp: a loopback peer is not a trusted proxy; rotating X-Forwarded-For shares one bucket', async () => {
    const running = await sidecar({ DATA_DIR: path.join(dir, 'e'), SIDECAR_LISTEN: 'tcp', RATE_LIMIT_STANDARD: '2' });
    expect(running.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const statuses = [];
    for (let i = 1; i <= 3; i++) statuses.push((await fetch(`${running.url}${API_PATHS.index}`, { headers: { 'x-forwarded-for': `198.51.100.${i}` } })).status);
    expect(statuses).toEqual([200, 200, ERROR_STATUS.rate_limited]);
  });

  test('SIDECAR_LISTEN=tcp with TRUST_PROXY=127.0.0.1: each forwarded address has its own bucket', async () => {
    const running = await sidecar({ DATA_DIR: path.join(dir, 'f'), SIDECAR_LISTEN: 'tcp', RATE_LIMIT_STANDARD: '2', TRUST_PROXY: '127.0.0.1' });
    const statuses = [];
    for (let i = 1; i <= 3; i++) statuses.push((await fetch(`${running.url}${API_PATHS.index}`, { headers: { 'x-forwarded-for': `198.51.100.${i}` } })).status);
    expect(statuses).toEqual([200, 200, 200]);
  });
});

describe('listenSidecar in-process', () => {
  test('a socket another sidecar still answers on is not taken over (shared DATA_DIR without the file lock, e.g. PostgreSQL)', async () => {
    const socketPath = path.join(dir, 'live.sock');
    const live = http.createServer((_req, res) => res.end('live'));
    await listenSidecar(live, { socketPath });
    const second = http.createServer();
    try {
      await expect(listenSidecar(second, { socketPath })).rejects.toThrow(/Another sidecar is listening on .*live\.sock/);
      expect(await overSocket(socketPath, '/')).toBe(200);
    } finally {
      await new Promise((resolve) => live.close(resolve));
    }
  });

  test('config: HEADERS_TIMEOUT_MS above REQUEST_TIMEOUT_MS -> refused, naming both', () => {
    expect(() => loadConfig({ HEADERS_TIMEOUT_MS: '5000', REQUEST_TIMEOUT_MS: '1000' })).toThrow(/HEADERS_TIMEOUT_MS="5000": must not exceed REQUEST_TIMEOUT_MS/);
    expect(() => loadConfig({ SIDECAR_LISTEN: 'udp' })).toThrow(/SIDECAR_LISTEN="udp": expected socket/);
  });
});
