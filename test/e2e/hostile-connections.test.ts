/**
 * Issue 8 on the real stack (npm start: front + sidecar child): one client's oversize uploads,
 * slow connections and malformed requests never change another client's answer or its timing;
 * the sidecar is reachable over its Unix socket only; parser refusals get the API's JSON shape.
 */
import { readFile, readdir, readlink, stat } from 'node:fs/promises';
import http from 'node:http';
import net from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, test, vi } from 'vitest';
import { API_PATHS, API_VERSION, ERROR_MESSAGES } from '../../api/contract/index.ts';
import { OWN_STACK_TIMEOUT_MS, startStack, type RunningStack } from '../support/stack.ts';

const shared = inject('stack');
const HEADERS_TIMEOUT_MS = 1_500;
const REQUEST_TIMEOUT_MS = 2_500;
const MAX_CONNECTIONS_PER_CLIENT = 4;
/** node:http checks deadlines on a tick of a quarter of the shorter one (server.ts), plus a busy machine. */
const LATE_MS = HEADERS_TIMEOUT_MS / 4 + 700;

let stack: RunningStack;
let port: number;
beforeAll(async () => {
  stack = await startStack({
    distDir: shared.distDir,
    baseUrl: shared.baseUrl,
    env: { HEADERS_TIMEOUT_MS: String(HEADERS_TIMEOUT_MS), REQUEST_TIMEOUT_MS: String(REQUEST_TIMEOUT_MS), MAX_CONNECTIONS_PER_CLIENT: String(MAX_CONNECTIONS_PER_CLIENT) },
  });
  port = Number(new URL(stack.url).port);
}, OWN_STACK_TIMEOUT_MS);
afterAll(() => stack?.stop(), OWN_STACK_TIMEOUT_MS);

/** One request through node:http from a chosen loopback address (each is its own client). */
function request(from: string, options: http.RequestOptions, body?: Buffer, to = port): Promise<{ status: number; ms: number; headers: http.IncomingHttpHeaders }> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port: to, localAddress: from, agent: false, ...options }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode ?? 0, ms: performance.now() - started, headers: res.headers }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
  /** From connect to the connection's close. */
  closedAfterMs: number;
}

/** Writes raw bytes (then, optionally, more on a timer) and collects whatever comes back until close. */
function rawExchange(from: string, first: string, drip?: { every: number; text: string }): Promise<RawAnswer> {
  const started = performance.now();
  return new Promise((resolve) => {
    const socket = net.connect({ host: '127.0.0.1', port, localAddress: from });
    let received = '';
    const timer = drip ? setInterval(() => socket.writable && socket.write(drip.text), drip.every) : undefined;
    socket.on('connect', () => socket.write(first));
    socket.on('data', (chunk) => (received += chunk.toString('latin1')));
    socket.on('error', () => {});
    socket.on('close', () => {
      clearInterval(timer);
      resolve({ ...parseAnswer(received), closedAfterMs: performance.now() - started });
    });
  });
}

function parseAnswer(text: string): Omit<RawAnswer, 'closedAfterMs'> {
  const [head, ...rest] = text.split('\r\n\r\n');
  const [statusLine, ...lines] = head.split('\r\n');
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    if (colon > 0) headers[line.slice(0, colon).toLowerCase()] = line.slice(colon + 1).trim();
  }
  return { status: Number(statusLine.split(' ')[1] ?? 0), headers, body: rest.join('\r\n\r\n') };
}

function expectApiError(answer: Pick<RawAnswer, 'status' | 'headers' | 'body'>, status = 400, code: keyof typeof ERROR_MESSAGES = 'invalid_request'): void {
  expect(answer.status).toBe(status);
  expect(answer.headers['content-type']).toBe('application/json');
  expect(JSON.parse(answer.body)).toEqual({ error: code, message: ERROR_MESSAGES[code] });
  expect(answer.headers['x-api-version']).toBe(API_VERSION);
  expect(answer.headers['x-content-type-options']).toBe('nosniff');
  for (const name of ['ratelimit-limit', 'ratelimit-remaining', 'ratelimit-reset']) expect(answer.headers[name]).toMatch(/^\d+$/);
  expect(answer.headers['ratelimit-policy']).toMatch(/^\d+;w=\d+$/);
}

describe('one client cannot hurt another', { timeout: 60_000 }, () => {
  test('isolation: 50 oversize chunked uploads from one address interleaved with 300 status probes from another -> every probe 200 within 1 s', async () => {
    // The shared stack (no tight connection cap): all 50 uploads may be in flight at once.
    const to = Number(new URL(shared.baseUrl).port);
    const uploads: Promise<{ status: number }>[] = [];
    const probed: { status: number; ms: number }[] = [];
    const oversize = Buffer.alloc(200_000, 'a');
    for (let i = 0; i < 50; i++) {
      uploads.push(request('127.0.0.2', { method: 'POST', path: API_PATHS.waitlist, headers: { 'content-type': 'application/json', 'transfer-encoding': 'chunked' } }, oversize, to));
      // Six at a time, like a browser: each upload has probes on both sides of it.
      probed.push(...(await Promise.all(Array.from({ length: 6 }, () => request('127.0.0.1', { path: API_PATHS.status }, undefined, to)))));
    }
    expect(probed.filter((p) => p.status !== 200)).toEqual([]);
    expect(Math.max(...probed.map((p) => p.ms))).toBeLessThan(1_000);
    expect((await Promise.all(uploads)).map((u) => u.status)).toEqual(Array(50).fill(413));
  });

  test('timeouts: a header drip is cut within HEADERS_TIMEOUT_MS, with the JSON answer', async () => {
    const answer = await rawExchange('127.0.0.3', `GET ${API_PATHS.status} HTTP/1.1\r\nHost: x\r\n`, { every: 100, text: 'X-Drip: 1\r\n' });
    expect(answer.closedAfterMs).toBeGreaterThanOrEqual(HEADERS_TIMEOUT_MS - 50);
    expect(answer.closedAfterMs).toBeLessThan(HEADERS_TIMEOUT_MS + LATE_MS);
    expectApiError(answer);
  });

  test('timeouts: a stalled body is cut within REQUEST_TIMEOUT_MS, with the JSON answer', async () => {
    const head = `POST ${API_PATHS.waitlist} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"email":`;
    const answer = await rawExchange('127.0.0.4', head);
    expect(answer.closedAfterMs).toBeGreaterThanOrEqual(REQUEST_TIMEOUT_MS - 50);
    expect(answer.closedAfterMs).toBeLessThan(REQUEST_TIMEOUT_MS + LATE_MS);
    expectApiError(answer);
  });

  test('limits: a client holding its whole allowance of slow connections is refused more, and another client is not slowed', async () => {
    const slow = Array.from({ length: MAX_CONNECTIONS_PER_CLIENT }, () => rawExchange('127.0.0.5', 'GET / HTTP/1.1\r\n'));
    // Give the front time to accept the allowance before the one over it.
    await new Promise((resolve) => setTimeout(resolve, 100));
    const over = await rawExchange('127.0.0.5', '');
    expect(over.closedAfterMs).toBeLessThan(HEADERS_TIMEOUT_MS / 2);
    expect(over.status).toBe(0);
    const probes: { status: number; ms: number }[] = [];
    // Another client, within its own allowance.
    for (let round = 0; round < 5; round++) probes.push(...(await Promise.all(Array.from({ length: MAX_CONNECTIONS_PER_CLIENT }, () => request('127.0.0.6', { path: API_PATHS.status })))));
    expect(probes.map((p) => p.status)).toEqual(Array(probes.length).fill(200));
    expect(Math.max(...probes.map((p) => p.ms))).toBeLessThan(1_000);
    // The slow ones are still being held to their deadline, not dropped for the others' sake.
    for (const answer of await Promise.all(slow)) expect(answer.closedAfterMs).toBeGreaterThanOrEqual(HEADERS_TIMEOUT_MS - 50);
  });
});

describe('parser refusals on API paths get the API answer', () => {
  const big = 'x'.repeat(20 * 1024);
  const cases: [name: string, request: string][] = [
    ['non-numeric Content-Length', `POST ${API_PATHS.waitlist} HTTP/1.1\r\nHost: x\r\nContent-Length: abc\r\n\r\n`],
    ['two different Content-Lengths (a lying length)', `POST ${API_PATHS.waitlist} HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nContent-Length: 6\r\n\r\nhello!`],
    ['Transfer-Encoding together with Content-Length', `POST ${API_PATHS.token} HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\nContent-Length: 5\r\n\r\n0\r\n\r\n`],
    ['an invalid method', `G@T ${API_PATHS.status} HTTP/1.1\r\nHost: x\r\n\r\n`],
    ['headers over 16 KB', `GET ${API_PATHS.status} HTTP/1.1\r\nHost: x\r\nX-Big: ${big}\r\n\r\n`],
    ['a broken chunk size', `POST ${API_PATHS.waitlist} HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n`],
    ['sandbox: non-numeric Content-Length', `POST /sandbox${API_PATHS.waitlist} HTTP/1.1\r\nHost: x\r\nContent-Length: -1\r\n\r\n`],
  ];
  test.each(cases)('parser refusal: %s -> 400 invalid_request with X-API-Version, RateLimit-*, nosniff; connection closed', async (_name, text) => {
    const answer = await rawExchange('127.0.0.7', text);
    expectApiError(answer);
    expect(answer.headers.connection).toBe('close');
  });

  test('parser refusal of a HEAD request: the API headers without a body', async () => {
    const answer = await rawExchange('127.0.0.7', `HEAD ${API_PATHS.status} HTTP/1.1\r\nHost: x\r\nContent-Length: abc\r\n\r\n`);
    expect(answer.status).toBe(400);
    expect(answer.headers['x-api-version']).toBe(API_VERSION);
    expect(answer.body).toBe('');
  });

  test('parser refusal on a page path: node:http-style plain answer, not the API shape', async () => {
    const answer = await rawExchange('127.0.0.7', 'G@T / HTTP/1.1\r\nHost: x\r\n\r\n');
    expect(answer.status).toBe(400);
    expect(answer.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(answer.headers['x-api-version']).toBeUndefined();
  });

  test('parser refusal: RateLimit-* repeat what the sidecar last said to that client, and the refusal is not counted', async () => {
    const before = await request('127.0.0.8', { path: API_PATHS.status });
    const refused = await rawExchange('127.0.0.8', `GET ${API_PATHS.status} HTTP/1.1\r\nHost: x\r\nContent-Length: abc\r\n\r\n`);
    const after = await request('127.0.0.8', { path: API_PATHS.status });
    expect(refused.headers['ratelimit-limit']).toBe(before.headers['ratelimit-limit']);
    expect(refused.headers['ratelimit-remaining']).toBe(before.headers['ratelimit-remaining']);
    expect(Number(after.headers['ratelimit-remaining'])).toBe(Number(before.headers['ratelimit-remaining']) - 1);
  });
});

describe('the sidecar is reachable by the front only', () => {
  test('sidecar: listens on DATA_DIR/sidecar.sock, mode 0600, and on no TCP port', async () => {
    const socketPath = path.join(stack.dataDir, 'sidecar.sock');
    const info = await stat(socketPath);
    expect(info.isSocket()).toBe(true);
    expect(info.mode & 0o777).toBe(0o600);
    const pid = (await stack.sidecarPid())!;
    expect(pid).toBeGreaterThan(0);
    expect(await tcpListenPorts(pid)).toEqual([]);
  });

  test("sidecar down: the front's own 500 has the JSON shape, X-API-Version, RateLimit-* and nosniff", async () => {
    const pid = (await stack.sidecarPid())!;
    process.kill(pid, 'SIGKILL');
    await vi.waitFor(() => expect(() => process.kill(pid, 0)).toThrow(), { timeout: 5_000, interval: 5 });
    const during = await rawExchange('127.0.0.9', `GET ${API_PATHS.status} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`);
    expectApiError(during, 500, 'internal_error');
    // The restarted sidecar takes over the stale socket file of the killed one.
    await vi.waitFor(async () => expect((await request('127.0.0.9', { path: API_PATHS.status })).status).toBe(200), { timeout: 30_000, interval: 50 });
  });
});

/** TCP ports a process listens on: its socket inodes matched against /proc/net/tcp{,6} LISTEN rows. */
async function tcpListenPorts(pid: number): Promise<number[]> {
  const inodes = new Set<string>();
  for (const fd of await readdir(`/proc/${pid}/fd`)) {
    const target = await readlink(`/proc/${pid}/fd/${fd}`).catch(() => '');
    const inode = /^socket:\[(\d+)\]$/.exec(target)?.[1];
    if (inode) inodes.add(inode);
  }
  expect(inodes.size).toBeGreaterThan(0);
  const ports: number[] = [];
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    for (const row of (await readFile(table, 'utf8').catch(() => '')).split('\n').slice(1)) {
      const cols = row.trim().split(/\s+/);
      // cols[3] is the state (0A = LISTEN), cols[9] the inode.
      if (cols[3] === '0A' && inodes.has(cols[9])) ports.push(parseInt(cols[1].split(':')[1], 16));
    }
  }
  return ports;
}
