/**
 * The proxy's hold (api/front/proxy.ts): a request that never reached a sidecar (none known,
 * connection refused, socket missing) waits for one and is then forwarded, body and all, even a
 * POST; one the sidecar received and did not answer is a 500 and is neither held nor repeated.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { API_VERSION, ERROR_MESSAGES } from '../../api/contract/index.ts';
import { trustedProxies } from '../../api/net/client-address.ts';
import { createProxy } from '../../api/front/proxy.ts';
import type { SidecarAddress as Upstream } from '../../api/net/sidecar-address.ts';
import { listen } from '../../api/front/server.ts';
import { raw } from './client.ts';

let dir: string;
const cleanup: (() => Promise<void> | void)[] = [];
beforeAll(async () => void (dir = await mkdtemp(path.join(tmpdir(), 'hold-'))));
afterAll(async () => {
  for (const step of cleanup.reverse()) await step();
  await rm(dir, { recursive: true, force: true });
});

/** A front whose upstream the test moves, with its hold counts and error lines. */
async function front(holdMs: number) {
  const state = { upstream: undefined as Upstream | undefined, held: 0, dropped: 0, errors: [] as string[] };
  const { proxy, close } = createProxy({
    upstream: () => state.upstream,
    trusted: trustedProxies([]),
    holdMs,
    holdEvents: { held: () => state.held++, dropped: () => state.dropped++ },
    onError: (line) => state.errors.push(line),
  });
  const listening = await listen(proxy, '127.0.0.1', 0);
  cleanup.push(() => (close(), listening.close(200)));
  return { url: listening.url, state };
}

/** A stand-in sidecar that echoes method and body; listens on a TCP port or a socket path. */
async function sidecar(at: { socketPath: string } | { port: number } = { port: 0 }) {
  const seen: string[] = [];
  const server = http.createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (body += chunk));
    req.on('end', () => {
      seen.push(`${req.method} ${body.length}`);
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ method: req.method, body }));
    });
  });
  await new Promise<void>((resolve) => ('socketPath' in at ? server.listen(at.socketPath, resolve) : server.listen(at.port, '127.0.0.1', resolve)));
  cleanup.push(() => (server.closeAllConnections(), new Promise<void>((resolve) => server.close(() => resolve()))));
  const upstream: Upstream = 'socketPath' in at ? at : { host: '127.0.0.1', port: (server.address() as AddressInfo).port };
  return { upstream, seen, server };
}

async function refusedPort(): Promise<number> {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

const after = (ms: number, work: () => unknown) => new Promise<void>((resolve) => setTimeout(async () => (await work(), resolve()), ms));
const BODY = JSON.stringify({ email: 'held@example.org', consent: true, note: 'x'.repeat(30_000) });
const post = { method: 'POST', headers: { 'content-type': 'application/json' }, body: BODY };

describe('proxy: a sidecar restart costs no request it never saw', () => {
  test('hold: a POST whose sidecar socket is missing waits until one listens there, then reaches it with its whole body', async () => {
    const { url, state } = await front(5_000);
    const socketPath = path.join(dir, 'missing.sock');
    state.upstream = { socketPath };
    const answer = raw(url, '/api/v1/waitlist', post);
    let started: Awaited<ReturnType<typeof sidecar>> | undefined;
    await after(150, async () => (started = await sidecar({ socketPath })));
    const res = await answer;
    expect(res.status).toBe(200);
    expect(JSON.parse(res.text)).toEqual({ method: 'POST', body: BODY });
    expect(started!.seen).toEqual([`POST ${BODY.length}`]);
    expect(state).toMatchObject({ held: 1, dropped: 0, errors: [] });
  });

  test('hold: a POST refused by a port nobody listens on waits until a sidecar listens there, then reaches it once', async () => {
    const { url, state } = await front(5_000);
    const port = await refusedPort();
    state.upstream = { host: '127.0.0.1', port };
    const answer = raw(url, '/api/v1/waitlist', post);
    let started: Awaited<ReturnType<typeof sidecar>> | undefined;
    await after(150, async () => (started = await sidecar({ port })));
    expect((await answer).status).toBe(200);
    expect(started!.seen).toEqual([`POST ${BODY.length}`]);
    expect(state).toMatchObject({ held: 1, dropped: 0 });
  });

  test('hold: while no sidecar is known (the supervisor is starting one), requests wait and go to the one that comes up', async () => {
    const { url, state } = await front(5_000);
    const ready = await sidecar();
    const answers = Promise.all([raw(url, '/api/v1/status'), raw(url, '/api/v1/waitlist', post), raw(url, '/api/v1/status')]);
    await after(100, () => (state.upstream = ready.upstream));
    expect((await answers).map((r) => r.status)).toEqual([200, 200, 200]);
    expect(ready.seen.sort()).toEqual(['GET 0', 'GET 0', `POST ${BODY.length}`]);
    expect(state).toMatchObject({ held: 3, dropped: 0 });
  });

  test('hold: when no sidecar comes within the hold time the answer is the JSON 500, counted as dropped', async () => {
    const { url, state } = await front(150);
    const startedAt = performance.now();
    const res = await raw(url, '/api/v1/waitlist', post);
    expect(performance.now() - startedAt).toBeGreaterThanOrEqual(140);
    expect(res.status).toBe(500);
    expect(res.headers['x-api-version']).toBe(API_VERSION);
    expect(JSON.parse(res.text)).toEqual({ error: 'internal_error', message: ERROR_MESSAGES.internal_error });
    expect(state).toMatchObject({ held: 1, dropped: 1 });
    // The connection stays usable: the unread body was drained.
    state.upstream = (await sidecar()).upstream;
    expect((await raw(url, '/api/v1/status')).status).toBe(200);
  });

  test('hold: a POST whose connection is reset before any answer, unread (a sidecar killed with it queued), is sent again whole to the next sidecar', async () => {
    const { url, state } = await front(5_000);
    // A dying sidecar: it accepts, reads nothing, and its connections are reset.
    const dying = net.createServer({ pauseOnConnect: true }, (socket) => setTimeout(() => socket.resetAndDestroy(), 50));
    await new Promise<void>((resolve) => dying.listen(0, '127.0.0.1', resolve));
    cleanup.push(() => new Promise<void>((resolve) => dying.close(() => resolve())));
    state.upstream = { host: '127.0.0.1', port: (dying.address() as AddressInfo).port };
    const answer = raw(url, '/api/v1/waitlist', post);
    const next = await sidecar();
    await after(150, () => (state.upstream = next.upstream));
    const res = await answer;
    expect(res.status).toBe(200);
    expect(JSON.parse(res.text)).toEqual({ method: 'POST', body: BODY });
    expect(next.seen).toEqual([`POST ${BODY.length}`]);
    expect(state).toMatchObject({ held: 1, dropped: 0 });
  });

  test('hold: SIDECAR_HOLD_MS=0 answers a refused request 500 at once, counted as dropped, not held', async () => {
    const { url, state } = await front(0);
    state.upstream = { host: '127.0.0.1', port: await refusedPort() };
    expect((await raw(url, '/api/v1/status')).status).toBe(500);
    expect(state.held).toBe(0);
    expect(state.dropped).toBe(1);
    expect(state.errors[0]).toMatch(/^proxy GET \/api\/v1\/status: .*ECONNREFUSED/);
  });

  test('hold: a POST the sidecar received and did not answer is a 500, neither held nor repeated', async () => {
    const { url, state } = await front(5_000);
    let attempts = 0;
    const dying = http.createServer((req) => (attempts++, req.socket.destroy()));
    await new Promise<void>((resolve) => dying.listen(0, '127.0.0.1', resolve));
    cleanup.push(() => new Promise<void>((resolve) => dying.close(() => resolve())));
    state.upstream = { host: '127.0.0.1', port: (dying.address() as AddressInfo).port };
    expect((await raw(url, '/api/v1/waitlist', post)).status).toBe(500);
    expect(attempts).toBe(1);
    expect(state).toMatchObject({ held: 0, dropped: 0 });
  });

  // A client that only ends its side (FIN) may still wait for the answer (half-close): one that
  // resets the connection is gone for sure.
  test('hold: a held request whose client resets the connection is not forwarded later', async () => {
    const { url, state } = await front(5_000);
    const ready = await sidecar();
    const target = new URL(url);
    const req = http.request({ host: target.hostname, port: target.port, method: 'POST', path: '/api/v1/waitlist', agent: false, headers: { 'content-type': 'application/json' } });
    req.on('error', () => {});
    req.end(BODY);
    await after(80, () => req.socket!.resetAndDestroy());
    await after(80, () => (state.upstream = ready.upstream));
    await after(100, () => {});
    expect(ready.seen).toEqual([]);
    expect(state).toMatchObject({ held: 1, dropped: 0 });
  });
});
