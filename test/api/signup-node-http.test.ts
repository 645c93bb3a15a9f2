/**
 * A sign-up served by node:http (h3's Node adapter, as the sidecar runs) reads its body from the
 * Node request and answers with the same bytes as in-process: the body limit, the connection
 * left in step or closed, and the answers of new, repeated and refused sign-ups.
 */
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_PATHS, BODY_LIMIT_BYTES } from '../../api/contract/index.ts';
import { send } from '../support/request.ts';
import { harness, type Harness } from './support/harness.ts';
import { jsonPost } from './support/requests.ts';
import { serveApp, type Served } from './support/server.ts';

let h: Harness;
let served: Served;
beforeAll(async () => {
  h = await harness();
  served = await serveApp(h.app);
});
afterAll(async () => {
  await served.close();
  await h.close();
});

/** Sends raw bytes on one connection; resolves with what came back once the server closes, `done(text)` holds or `waitMs` passes. */
function raw(bytes: string, done: (text: string) => boolean = () => false, waitMs = 3_000): Promise<{ text: string; closed: boolean }> {
  const { port } = new URL(served.url);
  return new Promise((resolve) => {
    const socket = connect(Number(port), '127.0.0.1');
    let text = '';
    const timer = setTimeout(() => (socket.destroy(), resolve({ text, closed: false })), waitMs);
    socket.on('data', (chunk) => {
      text += chunk;
      if (done(text)) socket.destroy();
    });
    socket.on('close', () => (clearTimeout(timer), resolve({ text, closed: !done(text) })));
    socket.on('error', () => {});
    socket.write(bytes);
  });
}

/** A chunked POST of `size` spaces to the waitlist. */
function chunkedPost(size: number): string {
  let out = `POST ${API_PATHS.waitlist} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n`;
  for (let left = size; left > 0; left -= 16_384) {
    const n = Math.min(16_384, left);
    out += `${n.toString(16)}\r\n${' '.repeat(n)}\r\n`;
  }
  return `${out}0\r\n\r\n`;
}

const follow = (email: string) => {
  const body = JSON.stringify({ email, consent: true });
  return `POST ${API_PATHS.waitlist} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body}`;
};

describe('sign-ups over node:http', () => {
  it('node:http sign-up: new, repeated and refused sign-ups answer exactly as in-process, headers included', async () => {
    for (const body of [{ email: 'n@example.com', consent: true }, { email: 'n@example.com', consent: true }, { email: 'n@example.com', consent: false }, { email: 'x@example.com', consent: true, website: 'bot' }]) {
      const over = await send(served.url, API_PATHS.waitlist, jsonPost(body));
      const inside = await send(h.app, API_PATHS.waitlist, jsonPost(body));
      const shown = (headers: Headers) => [...headers].filter(([name]) => !['date', 'connection', 'keep-alive', 'content-length', 'transfer-encoding'].includes(name) && !name.startsWith('ratelimit-'));
      expect([over.status, over.text, shown(over.headers)]).toEqual([inside.status, inside.text, shown(inside.headers)]);
    }
    expect((await h.durableRecords()).map((r) => r.email)).toContain('n@example.com');
  });

  it('node:http sign-up: a body a little over the limit -> 413, its rest read, and the connection answers the next request', async () => {
    const answer = await raw(chunkedPost(BODY_LIMIT_BYTES + 10_000) + follow('after-413@example.com'), (text) => text.includes('{"accepted":true}'));
    expect(answer.closed).toBe(false);
    expect(answer.text).toMatch(/^HTTP\/1\.1 413/);
    expect(answer.text).toContain('"error":"payload_too_large"');
    expect(answer.text).toMatch(/HTTP\/1\.1 200[^]*\{"accepted":true\}/);
    expect((await h.durableRecords()).map((r) => r.email)).toContain('after-413@example.com');
  });

  it('node:http sign-up: a body over twice the limit -> 413 with Connection: close, the rest never read as a request', async () => {
    const answer = await raw(chunkedPost(4 * BODY_LIMIT_BYTES) + follow('smuggled@example.com'));
    expect(answer.text).toMatch(/^HTTP\/1\.1 413/);
    expect(answer.text.toLowerCase()).toContain('connection: close');
    expect(answer.closed).toBe(true);
    expect(answer.text.match(/HTTP\/1\.1/g)).toHaveLength(1);
    expect((await h.durableRecords()).map((r) => r.email)).not.toContain('smuggled@example.com');
  });
});
