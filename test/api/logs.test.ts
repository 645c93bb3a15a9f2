/**
 * Logs: the pino logger of both processes (time, level, process name, redaction of every
 * string), and the sidecar's part: no request lines of its own (the front writes the one line per
 * request), error lines carrying the front's request id.
 */
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { API_PATHS } from '../../api/contract/index.ts';
import fc from 'fast-check';
import { createLogger, redactString } from '../../api/log/logger.ts';
import { redact } from '../../api/log/redact.ts';
import { createApp } from '../../api/sidecar/app.ts';
import { send } from '../support/request.ts';
import { harness } from './support/harness.ts';
import { formPost, jsonPost, plainBasic } from './support/requests.ts';

/** A logger like the processes' own, writing into memory. */
function memoryLogger(format: 'json' | 'pretty' = 'json', level: 'info' | 'warn' = 'info') {
  let text = '';
  const stream = new Writable({
    write(chunk, _encoding, done) {
      text += chunk;
      done();
    },
  });
  const logger = createLogger('sidecar', { LOG_FORMAT: format, LOG_LEVEL: level }, stream);
  return { logger, text: () => text, entries: () => text.split('\n').filter(Boolean).map((line) => JSON.parse(line) as Record<string, unknown>) };
}

const EMAIL = 'private.person+tag@example.com';
const JWT = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJzZWNyZXQtc3ViamVjdCJ9.c2lnbmF0dXJlLXNlY3JldA';

describe('logger', () => {
  it('logger json: one object per line with ISO time, level name, process name and pid', () => {
    const log = memoryLogger();
    log.logger.info('started');
    const [entry] = log.entries();
    expect(entry).toMatchObject({ level: 'info', name: 'sidecar', pid: process.pid, msg: 'started' });
    expect(new Date(entry.time as string).toISOString()).toBe(entry.time);
  });

  it('logger: the message and every string field pass the shared redaction (plain, percent-encoded, full-width @, JWT)', () => {
    const log = memoryLogger();
    log.logger.error({ path: `/x/${encodeURIComponent(EMAIL)}`, detail: `token ${JWT}`, who: 'private.person＠example.com' }, `failed for ${EMAIL}`);
    log.logger.info(new Error(`bad ${EMAIL}`) as unknown as string);
    const text = log.text();
    for (const secret of ['private.person', 'example.com', JWT.split('.')[1], '%40']) expect(text).not.toContain(secret);
    expect(log.entries()).toHaveLength(2);
  });

  it('logger: a newline in a logged string cannot forge a second line', () => {
    const log = memoryLogger('pretty');
    log.logger.info('GET /x\n{"level":"info","msg":"forged"}');
    expect(log.text().trim().split('\n')).toHaveLength(1);
  });

  it('logger pretty: one readable line per request with method, path, status and duration', () => {
    const log = memoryLogger('pretty');
    log.logger.info({ reqId: 'r-1', method: 'GET', path: '/thanks/', status: 200, ms: 1.5 }, 'request');
    const lines = log.text().trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/INFO.*\(sidecar\): GET \/thanks\/ 200 1\.5ms.*"reqId":"r-1"/);
  });

  it('logger: without LOG_FORMAT, json when stdout is not a terminal (systemd, Docker, pipes)', () => {
    expect(process.stdout.isTTY).toBeFalsy();
    let text = '';
    const stream = new Writable({ write: (chunk, _encoding, done) => ((text += chunk), done()) });
    createLogger('front', { LOG_LEVEL: 'info' }, stream).info('hello');
    expect(JSON.parse(text)).toMatchObject({ name: 'front', msg: 'hello' });
  });

  it("logger: the request line's shortcut past redact() gives redact()'s answer for every string (seeded)", () => {
    const pieces = ['a', 'Z', '0', '/', '.', '-', '_', ':', '+', '=', '@', '%40', '%2540', '＠', 'eyJ', 'eyJhbGciOiJIUzI1NiJ9', '&#64;', '\\u0040', ' ', '\n', 'é', '[', ']'];
    const text = fc.oneof(fc.string(), fc.array(fc.constantFrom(...pieces), { maxLength: 12 }).map((parts) => parts.join('')));
    fc.assert(fc.property(text, (value) => redactString(value) === redact(value)), { seed: 9, numRuns: 5_000 });
  });

  it('logger: LOG_LEVEL=warn drops info lines and keeps warnings', () => {
    const log = memoryLogger('json', 'warn');
    log.logger.info('quiet');
    log.logger.warn('loud');
    expect(log.entries().map((e) => e.msg)).toEqual(['loud']);
  });
});

describe('sidecar log', () => {
  it('logs: the sidecar writes no request lines (the front writes the one line per request)', async () => {
    const h = await harness();
    try {
      await send(h.app, API_PATHS.waitlist, jsonPost({ email: EMAIL, consent: true }));
      await send(h.app, API_PATHS.waitlist, jsonPost({ email: 'broken-address', consent: true }));
      const token = await send(h.app, API_PATHS.token, formPost('grant_type=client_credentials', { authorization: plainBasic(h.client.id, h.client.secret) }));
      await send(h.app, API_PATHS.stats, { headers: { authorization: `Bearer ${token.body.access_token}` } });
      await send(h.app, `/api/v1/users/${EMAIL}`);
      expect(h.logger.lines).toEqual([]);
    } finally {
      await h.close();
    }
  });

  it("logs: an internal error is logged with the front's request id, and without the address it concerned", async () => {
    const h = await harness();
    try {
      const log = memoryLogger();
      const app = createApp({ ...h, logger: log.logger });
      await h.breakStore();
      const res = await send(app, API_PATHS.waitlist, jsonPost({ email: EMAIL, consent: true }, { 'x-request-id': 'front-id-123' }));
      expect(res.status).toBe(500);
      const errors = log.entries().filter((e) => e.level === 'error');
      expect(errors.length).toBeGreaterThan(0);
      expect(errors.every((e) => e.reqId === 'front-id-123' && e.name === 'sidecar')).toBe(true);
      expect(log.text()).not.toContain('private.person');
    } finally {
      await h.close();
    }
  });

  it('logs: an X-Request-Id that could forge or flood a line (spaces, control characters, 200 characters) is not used', async () => {
    const h = await harness();
    try {
      const log = memoryLogger();
      const app = createApp({ ...h, logger: log.logger });
      await h.breakStore();
      for (const id of ['two words', 'a\u0001b', 'x'.repeat(200)]) {
        await send(app, API_PATHS.waitlist, jsonPost({ email: EMAIL, consent: true }, { 'x-request-id': id }));
      }
      const errors = log.entries().filter((e) => e.level === 'error');
      expect(errors.length).toBeGreaterThan(0);
      expect(errors.some((e) => 'reqId' in e)).toBe(false);
    } finally {
      await h.close();
    }
  });
});
