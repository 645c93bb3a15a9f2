import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { API_VERSION, BODY_LIMIT_BYTES, ERROR_MESSAGES } from '../../api/contract/index.ts';
import { trustedProxies } from '../../api/net/client-address.ts';
import { createProxy } from '../../api/front/proxy.ts';
import type { SidecarAddress as Upstream } from '../../api/net/sidecar-address.ts';
import { listen, type Listening } from '../../api/front/server.ts';
import { raw } from './client.ts';

/** A stand-in sidecar: each test installs the handler it needs. */
let handler: http.RequestListener = (_req, res) => res.end();
let upstreamServer: http.Server;
let upstream: Upstream | undefined;

async function startUpstream(): Promise<void> {
  upstreamServer = http.createServer((req, res) => handler(req, res));
  await new Promise<void>((resolve) => upstreamServer.listen(0, '127.0.0.1', resolve));
  upstream = { host: '127.0.0.1', port: (upstreamServer.address() as AddressInfo).port };
}

async function startFront(trust: string[] = [], idleTimeoutMs?: number): Promise<{ front: Listening; close(): Promise<void> }> {
  const { proxy, close } = createProxy({ upstream: () => upstream, trusted: trustedProxies(trust), idleTimeoutMs, onError: () => {} });
  const front = await listen(proxy, '127.0.0.1', 0);
  return { front, close: async () => (close(), front.close(500)) };
}

/** What the stand-in sidecar saw of the last request. */
interface Seen {
  method?: string;
  url?: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}
function recorder(status = 200): { seen: Seen; handler: http.RequestListener } {
  const seen: Seen = { headers: {}, body: '' };
  return {
    seen,
    handler: (req, res) => {
      Object.assign(seen, { method: req.method, url: req.url, headers: req.headers });
      req.setEncoding('utf8');
      req.on('data', (chunk: string) => (seen.body += chunk));
      req.on('end', () => res.writeHead(status, { 'content-type': 'application/json', 'x-upstream': 'yes' }).end('{"ok":true}'));
    },
  };
}

function expect500(res: Awaited<ReturnType<typeof raw>>): void {
  expect(res.status).toBe(500);
  expect(res.headers['content-type']).toBe('application/json');
  expect(res.headers['x-api-version']).toBe(API_VERSION);
  expect(res.headers['x-content-type-options']).toBe('nosniff');
  expect(JSON.parse(res.text)).toEqual({ error: 'internal_error', message: ERROR_MESSAGES.internal_error });
}

let plainFront: Awaited<ReturnType<typeof startFront>>;
beforeAll(async () => {
  await startUpstream();
  plainFront = await startFront();
});
afterAll(async () => {
  await plainFront.close();
  upstreamServer.closeAllConnections();
  await new Promise((resolve) => upstreamServer.close(resolve));
});

describe('proxy: what reaches the sidecar', () => {
  test('proxy: method, path, query and body are forwarded as sent', async () => {
    const r = recorder(201);
    handler = r.handler;
    const res = await raw(plainFront.front.url, '/api/v1/waitlist?lang=de&x=%20y', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: 'Bearer abc' },
      body: 'email=a%40example.org&consent=true',
    });
    expect(res.status).toBe(201);
    expect(res.headers['x-upstream']).toBe('yes');
    expect(res.text).toBe('{"ok":true}');
    expect(r.seen).toMatchObject({ method: 'POST', url: '/api/v1/waitlist?lang=de&x=%20y', body: 'email=a%40example.org&consent=true' });
    expect(r.seen.headers.authorization).toBe('Bearer abc');
    expect(r.seen.headers['content-type']).toBe('application/x-www-form-urlencoded');
  });

  test.each(['GET', 'HEAD', 'DELETE', 'OPTIONS', 'PUT'])('proxy: %s is forwarded with its own method', async (method) => {
    const r = recorder();
    handler = r.handler;
    const res = await raw(plainFront.front.url, '/sandbox/api/v1/status', { method });
    expect(res.status).toBe(200);
    expect(r.seen.method).toBe(method);
  });

  test('X-Forwarded-For: a client-sent value is overwritten with the peer address, never appended to', async () => {
    const r = recorder();
    handler = r.handler;
    await raw(plainFront.front.url, '/api/v1/status', {
      headers: { 'x-forwarded-for': '6.6.6.6', forwarded: 'for=6.6.6.6', 'x-real-ip': '6.6.6.6', 'x-forwarded-proto': 'https', 'x-forwarded-host': 'evil.example', host: 'site.example' },
    });
    expect(r.seen.headers['x-forwarded-for']).toBe('127.0.0.1');
    expect(r.seen.headers.forwarded).toBeUndefined();
    expect(r.seen.headers['x-real-ip']).toBeUndefined();
    expect(r.seen.headers['x-forwarded-proto']).toBe('http');
    expect(r.seen.headers['x-forwarded-host']).toBe('site.example');
  });

  test('X-Forwarded-For: behind a trusted proxy (TRUST_PROXY), the rightmost untrusted hop is the client', async () => {
    const trusting = await startFront(['127.0.0.1']);
    try {
      const r = recorder();
      handler = r.handler;
      await raw(trusting.front.url, '/api/v1/status', { headers: { 'x-forwarded-for': '6.6.6.6, 198.51.100.4', 'x-forwarded-proto': 'https' } });
      expect(r.seen.headers['x-forwarded-for']).toBe('198.51.100.4');
      expect(r.seen.headers['x-forwarded-proto']).toBe('https');
    } finally {
      await trusting.close();
    }
  });

  test('hop-by-hop: Connection, the fields it names, Keep-Alive, TE, Proxy-Authorization are not forwarded', async () => {
    const r = recorder();
    handler = r.handler;
    await raw(plainFront.front.url, '/api/v1/status', {
      headers: { connection: 'keep-alive, x-private', 'x-private': '1', 'keep-alive': 'timeout=5', te: 'trailers', 'proxy-authorization': 'Basic eDp5', 'x-kept': 'yes' },
    });
    expect(r.seen.headers['x-private']).toBeUndefined();
    expect(r.seen.headers['keep-alive']).toBeUndefined();
    expect(r.seen.headers.te).toBeUndefined();
    expect(r.seen.headers['proxy-authorization']).toBeUndefined();
    expect(r.seen.headers['x-kept']).toBe('yes');
  });

  test('hop-by-hop: the sidecar\'s connection fields are not passed back', async () => {
    handler = (_req, res) => res.writeHead(200, { 'proxy-authenticate': 'Basic', 'x-api-version': '1', trailer: 'x-t' }).end('ok');
    const res = await raw(plainFront.front.url, '/api/v1/status');
    expect(res.headers['proxy-authenticate']).toBeUndefined();
    expect(res.headers.trailer).toBeUndefined();
    expect(res.headers['x-api-version']).toBe('1');
  });
});

describe('proxy: connections to the sidecar', () => {
  test('Expect: 100-continue is answered by the front and not forwarded; the body still arrives', async () => {
    const r = recorder();
    handler = r.handler;
    const res = await raw(plainFront.front.url, '/api/v1/waitlist', { method: 'POST', headers: { expect: '100-continue', 'content-type': 'application/json' }, body: '{"a":1}' });
    expect(res.status).toBe(200);
    expect(r.seen.headers.expect).toBeUndefined();
    expect(r.seen.body).toBe('{"a":1}');
  });

  test('retry: a bodiless GET whose connection the sidecar closed without answering is repeated once', async () => {
    let attempts = 0;
    handler = (req, res) => (++attempts === 1 ? req.socket.destroy() : res.end('second'));
    const res = await raw(plainFront.front.url, '/api/v1/status');
    expect(res.status).toBe(200);
    expect(res.text).toBe('second');
    expect(attempts).toBe(2);
  });

  test('retry: a bodiless GET that meets a reset connection (RST) is repeated once, on a fresh connection', async () => {
    const ports: number[] = [];
    handler = (req, res) => {
      ports.push(req.socket.remotePort!);
      if (ports.length === 1) req.socket.resetAndDestroy();
      else res.end('second');
    };
    const res = await raw(plainFront.front.url, '/api/v1/status');
    expect(res.text).toBe('second');
    expect(ports).toHaveLength(2);
    expect(ports[1]).not.toBe(ports[0]);
  });

  test('retry: a bodiless GET is repeated once only: a second reset -> 500', async () => {
    let attempts = 0;
    handler = (req) => (attempts++, req.socket.resetAndDestroy());
    expect500(await raw(plainFront.front.url, '/api/v1/status'));
    expect(attempts).toBe(2);
  });

  test('retry: a POST is never repeated (not idempotent, RFC 9110 §9.2.2) -> 500', async () => {
    let attempts = 0;
    handler = (req, res) => (++attempts === 1 ? req.socket.destroy() : res.end('second'));
    const res = await raw(plainFront.front.url, '/api/v1/waitlist', { method: 'POST' });
    expect(res.status).toBe(500);
    expect(attempts).toBe(1);
  });

  // A client that only ends its side (FIN) may be waiting for the answer (half-close, below); one
  // that resets the connection is gone for sure.
  test('client gone: the sidecar sees its request aborted when the client resets before the answer', async () => {
    let sidecarSawClose!: () => void;
    const closed = new Promise<void>((resolve) => (sidecarSawClose = resolve));
    let arrived!: () => void;
    const started = new Promise<void>((resolve) => (arrived = resolve));
    handler = (_req, res) => {
      res.on('close', () => sidecarSawClose());
      arrived();
    };
    const url = new URL(plainFront.front.url);
    const req = http.get({ host: url.hostname, port: url.port, path: '/api/v1/status', agent: false });
    req.on('error', () => {});
    await started;
    req.socket!.resetAndDestroy();
    // Would time out if the front kept the sidecar's exchange open.
    await closed;
  });

  test('restart: a sidecar that comes back on another port is reached there', async () => {
    const other = http.createServer((_req, res) => res.end('other'));
    await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve));
    const saved = upstream;
    upstream = { host: '127.0.0.1', port: (other.address() as AddressInfo).port };
    try {
      expect((await raw(plainFront.front.url, '/api/v1/status')).text).toBe('other');
    } finally {
      upstream = saved;
      other.closeAllConnections();
      await new Promise((resolve) => other.close(resolve));
    }
  });
});

describe('proxy: streaming', () => {
  test('streaming: an early answer (413) arrives while a 10 MB upload is still being sent', async () => {
    handler = (req, res) => {
      // Like the sidecar: count while reading, refuse once over the limit.
      let seen = 0;
      req.on('data', (chunk: Buffer) => {
        seen += chunk.length;
        if (seen > BODY_LIMIT_BYTES && !res.headersSent) res.writeHead(413, { 'content-type': 'application/json' }).end('{"error":"payload_too_large"}');
      });
    };
    const url = new URL(plainFront.front.url);
    const total = 10 * 1024 * 1024;
    const req = http.request({ host: url.hostname, port: url.port, method: 'POST', path: '/api/v1/waitlist', headers: { 'content-type': 'application/json', 'content-length': String(total) } });
    req.on('error', () => {});
    const status = new Promise<number>((resolve) => req.on('response', (res) => (res.resume(), resolve(res.statusCode ?? 0))));
    req.write(Buffer.alloc(256 * 1024, 'x'));
    // Only a quarter megabyte of ten has been sent, and the answer comes anyway.
    expect(await status).toBe(413);
    req.destroy();
  });

  test('streaming: the client gets the first part of a response before the sidecar has finished it', async () => {
    let finish!: () => void;
    const gate = new Promise<void>((resolve) => (finish = resolve));
    handler = (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.write('first;');
      void gate.then(() => res.end('second'));
    };
    const url = new URL(plainFront.front.url);
    const text = await new Promise<string>((resolve, reject) => {
      http
        .get({ host: url.hostname, port: url.port, path: '/api/v1/status' }, (res) => {
          let body = '';
          res.setEncoding('utf8');
          res.on('data', (chunk: string) => {
            body += chunk;
            if (body === 'first;') finish();
          });
          res.on('end', () => resolve(body));
        })
        .on('error', reject);
    });
    expect(text).toBe('first;second');
  });
});

describe('proxy: sidecar down or failing -> JSON 500', () => {
  test('sidecar down: no upstream known (restarting) -> 500 internal_error at once', async () => {
    const saved = upstream;
    upstream = undefined;
    try {
      expect500(await raw(plainFront.front.url, '/api/v1/status'));
    } finally {
      upstream = saved;
    }
  });

  test('sidecar down: connection refused -> 500 internal_error, body upload discarded', async () => {
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const saved = upstream;
    upstream = { host: '127.0.0.1', port };
    try {
      expect500(await raw(plainFront.front.url, '/api/v1/waitlist', { method: 'POST', body: 'x'.repeat(100_000) }));
      // The connection is still usable afterwards (keep-alive with the front).
      expect500(await raw(plainFront.front.url, '/api/v1/status'));
    } finally {
      upstream = saved;
    }
  });

  test('sidecar dies before answering -> 500 internal_error', async () => {
    handler = (req) => req.socket.destroy();
    expect500(await raw(plainFront.front.url, '/api/v1/status'));
  });

  test('sidecar silent -> 500 after the idle timeout, not a hang', async () => {
    const impatient = await startFront([], 100);
    try {
      handler = () => {};
      expect500(await raw(impatient.front.url, '/api/v1/status'));
    } finally {
      await impatient.close();
    }
  });

  test('sidecar dies after its headers -> the client sees a broken response, not a short success', async () => {
    handler = (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '100' });
      res.write('{"partial":');
      setImmediate(() => res.socket?.destroy());
    };
    await expect(raw(plainFront.front.url, '/api/v1/status')).rejects.toThrow();
  });
});

describe('proxy: one client cannot poison a sidecar connection', () => {
  /** Reads the whole body like a patient sidecar and reports what arrived. */
  const measuring = (): { seen: Seen; handler: http.RequestListener } => recorder(413);

  test.each([
    ['chunked', { 'transfer-encoding': 'chunked' }],
    ['with a declared Content-Length', { 'content-length': '200000' }],
  ])('body cap: of a 200 KB upload (%s) the sidecar is sent exactly 64 KB + 1, never the declared length', async (_name, headers) => {
    const r = measuring();
    handler = r.handler;
    const res = await raw(plainFront.front.url, '/api/v1/waitlist', { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: 'x'.repeat(200_000) });
    expect(res.status).toBe(413);
    expect(r.seen.body.length).toBe(BODY_LIMIT_BYTES + 1);
    // Chunked, or the cut length when undici saw the whole cut body before sending.
    expect([undefined, String(BODY_LIMIT_BYTES + 1)]).toContain(r.seen.headers['content-length']);
  });

  test('body cap: a body of exactly 64 KB + 1 passes whole with its Content-Length', async () => {
    const r = recorder(200);
    handler = r.handler;
    await raw(plainFront.front.url, '/api/v1/waitlist', { method: 'POST', body: 'x'.repeat(BODY_LIMIT_BYTES + 1) });
    expect(r.seen.body.length).toBe(BODY_LIMIT_BYTES + 1);
    expect(r.seen.headers['content-length']).toBe(String(BODY_LIMIT_BYTES + 1));
  });

  test('whole bodies: a body of declared length reaches the sidecar once all of it has come, so a client that stops half-way holds no sidecar connection', async () => {
    const arrived: string[] = [];
    handler = (req, res) => {
      arrived.push(req.url ?? '');
      let length = 0;
      req.on('data', (chunk: Buffer) => (length += chunk.length));
      req.on('end', () => res.end(String(length)));
    };
    const { hostname, port } = new URL(plainFront.front.url);
    const slow = net.connect(Number(port), hostname);
    await new Promise((resolve) => slow.once('connect', resolve));
    const answer = new Promise<string>((resolve) => {
      let text = '';
      slow.on('data', (chunk: Buffer) => (text += chunk)).on('end', () => resolve(text));
    });
    slow.write(`POST /api/v1/waitlist?slow HTTP/1.1\r\nHost: ${hostname}\r\nContent-Type: application/json\r\nContent-Length: 100\r\nConnection: close\r\n\r\n${'a'.repeat(50)}`);
    // A whole request from another client, answered while the first body is half-way.
    const other = await raw(plainFront.front.url, '/api/v1/waitlist?other', { method: 'POST', body: 'b'.repeat(100) });
    expect(other.text).toBe('100');
    expect(arrived).toEqual(['/api/v1/waitlist?other']);
    slow.write('a'.repeat(50));
    expect(await answer).toMatch(/\r\n\r\n100$/);
    expect(arrived).toEqual(['/api/v1/waitlist?other', '/api/v1/waitlist?slow']);
  });

  test('a sidecar connection answered with Connection: close is not reused for the next request', async () => {
    const ports: number[] = [];
    handler = (req, res) => {
      ports.push(req.socket.remotePort!);
      // What the sidecar says when it leaves a body unread (api/sidecar/http/body.ts).
      res.writeHead(ports.length === 1 ? 413 : 200, { connection: ports.length === 1 ? 'close' : 'keep-alive' }).end('{}');
    };
    expect((await raw(plainFront.front.url, '/api/v1/waitlist', { method: 'POST', body: '{}' })).status).toBe(413);
    expect((await raw(plainFront.front.url, '/api/v1/status')).status).toBe(200);
    expect(ports).toHaveLength(2);
    expect(ports[1]).not.toBe(ports[0]);
  });

  test("nosniff: a proxied API answer carries X-Content-Type-Options even when the sidecar's lacks it", async () => {
    handler = recorder(200).handler;
    expect((await raw(plainFront.front.url, '/api/v1/status')).headers['x-content-type-options']).toBe('nosniff');
  });
});
