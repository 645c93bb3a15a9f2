/**
 * Hostile clients on the real stack (npm start: front + sidecar child): one client's oversize uploads,
 * slow connections and malformed requests never change another client's answer or its timing;
 * the sidecar is reachable over its Unix socket only; what node:http's parser refuses gets the
 * front's one fixed 400 in the API's JSON shape.
 */
import { readFile, readdir, readlink, stat } from 'node:fs/promises';
import http from 'node:http';
import net from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, test, vi } from 'vitest';
import { API_PATHS, API_VERSION, BODY_LIMIT_BYTES, ERROR_MESSAGES } from '../../api/contract/index.ts';
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
    // SIDECAR_HOLD_MS=0: while the sidecar is down the front answers its own 500 at once (tested below)
    // instead of holding the request for the next sidecar (test/e2e/front-restart-hold.test.ts).
    env: { HEADERS_TIMEOUT_MS: String(HEADERS_TIMEOUT_MS), REQUEST_TIMEOUT_MS: String(REQUEST_TIMEOUT_MS), MAX_CONNECTIONS_PER_CLIENT: String(MAX_CONNECTIONS_PER_CLIENT), SIDECAR_HOLD_MS: '0' },
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

  // The deadlines below are waited out for real; each case is a client of its own (its own
  // address), so they wait side by side.
  test.concurrent('timeouts: a header drip is cut within HEADERS_TIMEOUT_MS, with the JSON answer', async () => {
    const answer = await rawExchange('127.0.0.3', `GET ${API_PATHS.status} HTTP/1.1\r\nHost: x\r\n`, { every: 100, text: 'X-Drip: 1\r\n' });
    expect(answer.closedAfterMs).toBeGreaterThanOrEqual(HEADERS_TIMEOUT_MS - 50);
    expect(answer.closedAfterMs).toBeLessThan(HEADERS_TIMEOUT_MS + LATE_MS);
    expectApiError(answer);
  });

  test.concurrent('timeouts: a stalled body is cut within REQUEST_TIMEOUT_MS, with the JSON answer', async () => {
    const head = `POST ${API_PATHS.waitlist} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"email":`;
    const answer = await rawExchange('127.0.0.4', head);
    expect(answer.closedAfterMs).toBeGreaterThanOrEqual(REQUEST_TIMEOUT_MS - 50);
    expect(answer.closedAfterMs).toBeLessThan(REQUEST_TIMEOUT_MS + LATE_MS);
    expectApiError(answer);
  });

  test.concurrent('limits: a client holding its whole allowance of slow connections is refused more, and another client is not slowed', async () => {
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

describe('parser refusals get the fixed 400 in the API shape', () => {
  const big = 'x'.repeat(20 * 1024);
  const cases: [name: string, request: string][] = [
    ['non-numeric Content-Length', `POST ${API_PATHS.waitlist} HTTP/1.1\r\nHost: x\r\nContent-Length: abc\r\n\r\n`],
    ['two different Content-Lengths (a lying length)', `POST ${API_PATHS.waitlist} HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nContent-Length: 6\r\n\r\nhello!`],
    ['Transfer-Encoding together with Content-Length', `POST ${API_PATHS.waitlist} HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\nContent-Length: 5\r\n\r\n0\r\n\r\n`],
    ['an invalid method', `G@T ${API_PATHS.status} HTTP/1.1\r\nHost: x\r\n\r\n`],
    ['headers over 16 KB', `GET ${API_PATHS.status} HTTP/1.1\r\nHost: x\r\nX-Big: ${big}\r\n\r\n`],
    ['a broken chunk size', `POST ${API_PATHS.waitlist} HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n`],
    ['sandbox: non-numeric Content-Length', `POST /sandbox${API_PATHS.waitlist} HTTP/1.1\r\nHost: x\r\nContent-Length: -1\r\n\r\n`],
  ];
  test.each(cases)('parser refusal: %s -> 400 invalid_request with X-API-Version and nosniff; connection closed', async (_name, text) => {
    const answer = await rawExchange('127.0.0.7', text);
    expectApiError(answer);
    expect(answer.headers.connection).toBe('close');
  });

  test('parser refusal on a page path: the same fixed 400', async () => {
    expectApiError(await rawExchange('127.0.0.7', 'G@T / HTTP/1.1\r\nHost: x\r\n\r\n'));
  });
});

/** A raw connection driven step by step: write, wait for what the front has sent so far. */
function conversation(from: string) {
  const socket = net.connect({ host: '127.0.0.1', port, localAddress: from });
  let received = '';
  const waiters: (() => void)[] = [];
  socket.on('data', (chunk) => {
    received += chunk.toString('latin1');
    for (const wake of waiters.splice(0)) wake();
  });
  socket.on('error', () => {});
  const closed = new Promise<string>((resolve) => socket.on('close', () => resolve(received)));
  const connected = new Promise<void>((resolve) => socket.on('connect', resolve));
  return {
    socket,
    closed,
    async write(text: string | Buffer): Promise<void> {
      await connected;
      if (socket.writable) socket.write(text);
    },
    /** Resolves once `count` complete answers have arrived (each ends with its Content-Length body or chunked end). */
    async answers(count: number): Promise<RawAnswer[]> {
      for (;;) {
        const parsed = splitAnswers(received);
        if (parsed.length >= count) return parsed;
        if (socket.destroyed) throw new Error(`closed after ${parsed.length} answers:\n${received.slice(0, 400)}`);
        await new Promise<void>((resolve) => {
          waiters.push(resolve);
          socket.once('close', resolve);
        });
      }
    },
  };
}

/** The complete answers in `text` (Content-Length or chunked bodies). */
function splitAnswers(text: string): RawAnswer[] {
  const out: RawAnswer[] = [];
  let rest = text;
  for (;;) {
    const end = rest.indexOf('\r\n\r\n');
    if (end === -1) return out;
    const { status, headers } = parseAnswer(rest.slice(0, end));
    let bodyEnd: number;
    if (headers['transfer-encoding'] === 'chunked') {
      const last = rest.indexOf('\r\n0\r\n\r\n', end);
      if (last === -1) return out;
      bodyEnd = last + 7;
    } else bodyEnd = end + 4 + Number(headers['content-length'] ?? 0);
    if (rest.length < bodyEnd) return out;
    out.push({ status, headers, body: rest.slice(end + 4, bodyEnd), closedAfterMs: 0 });
    rest = rest.slice(bodyEnd);
  }
}

describe('connections stay in step', { timeout: 30_000 }, () => {
  test('keep-alive: a page answered before its body arrived (Content-Length within the limit) reads that body, and the next request on the connection is answered', async () => {
    const talk = conversation('127.0.0.10');
    await talk.write('POST /nope HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\n\r\n');
    const [first] = await talk.answers(1);
    expect(first.status).toBe(404);
    expect(first.headers.connection).toBe('keep-alive');
    await talk.write(`abcGET ${API_PATHS.status} HTTP/1.1\r\nHost: x\r\n\r\n`);
    const [, second] = await talk.answers(2);
    expect(second.status).toBe(200);
    expect(second.headers['x-api-version']).toBe(API_VERSION);
    talk.socket.destroy();
  });

  test.each([
    ['a page, chunked body', 'GET /nope HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n', 404],
    ['a page, Content-Length over the limit', `POST / HTTP/1.1\r\nHost: x\r\nContent-Length: ${BODY_LIMIT_BYTES * 4}\r\n\r\n`, 405],
    // The sidecar reads what it is sent: it answers early only once the body is over the limit.
    ['the API, chunked body over the limit', `POST ${API_PATHS.waitlist} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n${(BODY_LIMIT_BYTES + 10).toString(16)}\r\n${'a'.repeat(BODY_LIMIT_BYTES + 10)}\r\n`, 413],
  ])('keep-alive: an answer given before a body of unknown or over-limit length has all come (%s) arrives whole; the rest is read, not reset, until the client stops', async (_name, head, status) => {
    const talk = conversation('127.0.0.11');
    await talk.write(head);
    const [answer] = await talk.answers(1);
    expect(answer.status).toBe(status);
    await talk.write(head.includes('chunked') ? '3\r\nabc\r\n' : 'abc');
    talk.socket.end();
    await talk.closed;
  });

  test.each(['/s%61ndbox/api/v1/status', '/%61pi/v1/status'])('RFC 3986 §6.2.2.2: %s (an unreserved character percent-encoded) is the API path it decodes to, as for the sidecar', async (target) => {
    const answer = await rawExchange('127.0.0.12', `GET ${target} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`);
    expect(answer.status).toBe(200);
    expect(answer.headers['content-type']).toMatch(/^application\/json/);
    expect(answer.headers['x-api-version']).toBe(API_VERSION);
  });

  test('RFC 9112 §3.2: two Host fields on an API path -> 400 invalid_request with the API headers, connection closed, no error logged', async () => {
    const answer = await rawExchange('127.0.0.13', `GET ${API_PATHS.status} HTTP/1.1\r\nHost: a.example\r\nHost: b.example\r\n\r\n`);
    expectApiError(answer);
    expect(answer.headers.connection).toBe('close');
    expect(stack.output()).not.toMatch(/proxy GET|internal error/);
  });

  test('RFC 9112 §3.2: an invalid Host value on an API path -> 400 invalid_request with the API headers', async () => {
    expectApiError(await rawExchange('127.0.0.13', `GET /sandbox${API_PATHS.status} HTTP/1.1\r\nHost: a b/c\r\n\r\n`));
  });

  test('RFC 9112 §3.2: two Host fields on a page path -> the same fixed 400', async () => {
    expectApiError(await rawExchange('127.0.0.13', 'GET / HTTP/1.1\r\nHost: a.example\r\nHost: b.example\r\n\r\n'));
  });

  test('RFC 9112 §3.2: HTTP/1.1 without Host on an API path -> 400 invalid_request with the API headers; HEAD gets the headers only', async () => {
    expectApiError(await rawExchange('127.0.0.14', `POST ${API_PATHS.waitlist} HTTP/1.1\r\nContent-Length: 2\r\n\r\n{}`));
    const head = await rawExchange('127.0.0.14', `HEAD ${API_PATHS.status} HTTP/1.1\r\n\r\n`);
    expect(head.status).toBe(400);
    expect(head.headers['x-api-version']).toBe(API_VERSION);
    expect(head.body).toBe('');
  });

  test('RFC 9112 §3.2: HTTP/1.0 without Host is served (Host is HTTP/1.1’s requirement)', async () => {
    const answer = await rawExchange('127.0.0.14', `GET ${API_PATHS.status} HTTP/1.0\r\n\r\n`);
    expect(answer.status).toBe(200);
  });

  test.each([API_PATHS.status, `/sandbox${API_PATHS.status}`, '/'])('half-close: a client that ends its side after a complete request (%s) still gets the whole answer', async (target) => {
    const talk = conversation('127.0.0.15');
    await talk.write(`GET ${target} HTTP/1.1\r\nHost: x\r\n\r\n`);
    talk.socket.end();
    const [answer] = await talk.answers(1);
    expect(answer.status).toBe(200);
    await talk.closed;
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

  test("sidecar down: the front's own 500 has the JSON shape, X-API-Version and nosniff", async () => {
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
