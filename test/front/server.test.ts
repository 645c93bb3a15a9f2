import http from 'node:http';
import net from 'node:net';
import { describe, expect, test } from 'vitest';
import { listen } from '../../api/front/server.ts';
import { raw } from './client.ts';

function gated() {
  let open!: () => void;
  const gate = new Promise<void>((resolve) => (open = resolve));
  let arrived!: () => void;
  const started = new Promise<void>((resolve) => (arrived = resolve));
  const handler: http.RequestListener = (req, res) => {
    if (req.url === '/slow') {
      arrived();
      void gate.then(() => res.end('done'));
    } else res.end('quick');
  };
  return { handler, open, started };
}

describe('graceful stop', () => {
  test('graceful stop: a request in flight finishes; new connections are refused meanwhile', async () => {
    const { handler, open, started } = gated();
    const front = await listen(handler, '127.0.0.1', 0);
    const inFlight = raw(front.url, '/slow');
    await started;
    let stopped = false;
    const closing = front.close(10_000).then(() => (stopped = true));
    await expect(raw(front.url, '/quick')).rejects.toThrow(/ECONNREFUSED/);
    expect(stopped).toBe(false);
    open();
    expect((await inFlight).text).toBe('done');
    await closing;
    expect(stopped).toBe(true);
  });

  test('graceful stop: idle kept-alive connections do not hold the stop up', async () => {
    const front = await listen((_req, res) => res.end('ok'), '127.0.0.1', 0);
    const agent = new http.Agent({ keepAlive: true });
    const url = new URL(front.url);
    await new Promise<void>((resolve) => http.get({ host: url.hostname, port: url.port, path: '/', agent }, (res) => res.resume().on('end', resolve)));
    // A kept-alive socket is open and idle; the stop must not wait for its keep-alive timeout.
    await front.close(60_000);
    agent.destroy();
  });

  test('graceful stop: a request still running at the deadline is cut off, and the stop completes', async () => {
    const { handler, started } = gated();
    const front = await listen(handler, '127.0.0.1', 0);
    const inFlight = raw(front.url, '/slow');
    await started;
    await front.close(50);
    await expect(inFlight).rejects.toThrow();
  });
});

describe('deadlines (KEEP_ALIVE_TIMEOUT_MS, HEADERS_TIMEOUT_MS)', () => {
  /** Connects, sends `text`, resolves with what came back and how long the front kept the connection. */
  function hold(url: string, text: string): Promise<{ received: string; ms: number }> {
    const { port } = new URL(url);
    const started = performance.now();
    return new Promise((resolve) => {
      const socket = net.connect(Number(port), '127.0.0.1', () => socket.write(text));
      let received = '';
      socket.on('data', (chunk) => (received += chunk));
      socket.on('error', () => {});
      socket.on('close', () => resolve({ received, ms: performance.now() - started }));
    });
  }

  test('keep-alive: an idle kept-alive connection is closed after KEEP_ALIVE_TIMEOUT_MS, not before', async () => {
    const front = await listen((_req, res) => res.end('ok'), '127.0.0.1', 0, { keepAliveTimeoutMs: 300 });
    try {
      const { received, ms } = await hold(front.url, 'GET / HTTP/1.1\r\nHost: x\r\n\r\n');
      expect(received).toMatch(/^HTTP\/1\.1 200/);
      expect(ms).toBeGreaterThanOrEqual(250);
      expect(ms).toBeLessThan(2_000);
    } finally {
      await front.close(100);
    }
  });

  test('headers: a connection that never finishes its headers gets the fixed 400 and is closed after HEADERS_TIMEOUT_MS', async () => {
    const front = await listen((_req, res) => res.end('ok'), '127.0.0.1', 0, { headersTimeoutMs: 200, requestTimeoutMs: 400 });
    try {
      const { received, ms } = await hold(front.url, 'GET / HTTP/1.1\r\nHost: x\r\n');
      expect(received).toMatch(/^HTTP\/1\.1 400 [^]*\r\nConnection: close\r\n[^]*"error":"invalid_request"/);
      expect(ms).toBeGreaterThanOrEqual(150);
      expect(ms).toBeLessThan(200 + 50 + 1_000);
    } finally {
      await front.close(100);
    }
  });
});
