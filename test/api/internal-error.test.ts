/**
 * A client that hangs up is logged as such (at most one quiet line), never as an
 * internal error; a genuine internal error logs one line with an error id, and the 500 body
 * carries nothing from the inside.
 */
import { connect } from 'node:net';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { API_PATHS, ERROR_MESSAGES } from '../../api/contract/index.ts';
import { createApp } from '../../api/sidecar/app.ts';
import { send } from '../support/request.ts';
import { CapturingLogger, harness, type Harness } from './support/harness.ts';
import { startSidecar, type Running } from './support/process.ts';
import { jsonPost } from './support/requests.ts';

describe('a genuine internal error', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await harness();
  });
  afterAll(() => h.close());

  it('internal error: one log line with an error id and the detail; the 500 body is the generic one', async () => {
    const secret = 'disk on fire at /srv/secret/path for ada@example.com';
    const store = Object.create(h.store, {
      upsert: { value: async () => Promise.reject(new Error(secret)) },
    });
    const logger = new CapturingLogger();
    const app = createApp({ store, clock: h.clock, keys: h.keys, clients: h.clients, config: h.config, logger });
    const res = await send(app, API_PATHS.waitlist, jsonPost({ email: 'ada@example.com', consent: true }));
    expect(res.status).toBe(500);
    expect(res.body).toEqual({ error: 'internal_error', message: ERROR_MESSAGES.internal_error });
    expect(res.text).not.toMatch(/fire|srv|secret|stack|Error/);
    expect(logger.lines).toHaveLength(1);
    expect(logger.lines[0]).toMatch(/^error id [0-9a-f]{12}: internal error on POST \/api\/v1\/waitlist: .*disk on fire/);
    expect(logger.lines[0]).not.toContain('ada@example.com');
    expect(logger.lines[0]).not.toContain('\n');
  });

  it('internal error: each failure gets its own error id', async () => {
    const store = Object.create(h.store, { upsert: { value: async () => Promise.reject(new Error('boom')) } });
    const logger = new CapturingLogger();
    const app = createApp({ store, clock: h.clock, keys: h.keys, clients: h.clients, config: h.config, logger });
    for (let i = 0; i < 3; i++) await send(app, API_PATHS.waitlist, jsonPost({ email: 'ada@example.com', consent: true }));
    const ids = logger.lines.map((line) => /^error id ([0-9a-f]{12})/.exec(line)?.[1]);
    expect(new Set(ids).size).toBe(3);
  });
});

describe('a client that hangs up (real sidecar process)', () => {
  let dir: string;
  let sidecar: Running;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'sidecar-hangup-'));
    sidecar = await startSidecar({ DATA_DIR: dir, SIDECAR_LISTEN: 'tcp', RATE_LIMIT_STANDARD: '1000' });
  });
  afterAll(async () => {
    sidecar.child.kill('SIGTERM');
    await sidecar.exited;
    await rm(dir, { recursive: true, force: true });
  });

  /** Sends the head and part of a body over a raw socket, then closes the connection. */
  function hangUp(path: string, chunked: boolean): Promise<void> {
    const { port } = new URL(sidecar.url);
    return new Promise((done, fail) => {
      const socket = connect(Number(port), '127.0.0.1', () => {
        const framing = chunked ? 'Transfer-Encoding: chunked\r\n\r\n10\r\nemail=ada%40exam' : 'Content-Length: 5000\r\n\r\nemail=ada%40exam';
        socket.write(`POST ${path} HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-www-form-urlencoded\r\n${framing}`, () => {
          // The bytes are with the kernel, which delivers them before the FIN: close without the rest.
          socket.destroy();
        });
      });
      socket.on('close', () => done());
      socket.on('error', fail);
    });
  }

  it('hang-up: 10 clients that close mid-body give at most one quiet line each and never an internal error', async () => {
    for (let i = 0; i < 10; i++) await hangUp(i % 2 ? API_PATHS.waitlist : API_PATHS.token, i % 4 < 2);
    const quietLines = () => (sidecar.stdout() + sidecar.stderr()).split('\n').filter((line) => line.includes('client closed the connection'));
    // Each hang-up reached a handler that was reading its body: one quiet line each, no more.
    await vi.waitFor(() => expect(quietLines()).toHaveLength(10), { timeout: 5_000, interval: 20 });
    expect((await send(sidecar.url, API_PATHS.status)).status).toBe(200);
    expect(quietLines()).toHaveLength(10);
    expect(sidecar.stdout() + sidecar.stderr()).not.toMatch(/internal error|error id|AbortError|ECONNRESET|"level":"error"/);
  });
});
