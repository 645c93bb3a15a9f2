/**
 * The request log of `npm start`: one JSON line per request for the whole
 * product, written by the front (an API request is not logged again by the sidecar), with time,
 * level, process, request id, method, path without query, status and duration; no query string,
 * address or token anywhere.
 */
import { afterAll, beforeAll, describe, expect, inject, test, vi } from 'vitest';
import { API_PATHS, THANKS_PATHS } from '../../api/contract/index.ts';
import { raw } from '../front/client.ts';
import { OWN_STACK_TIMEOUT_MS, startStack, type RunningStack } from '../support/stack.ts';

const shared = inject('stack');
const JWT = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJzZWNyZXQtc3ViamVjdCJ9.c2lnbmF0dXJl';

interface Entry {
  level: string;
  time: string;
  name: string;
  msg: string;
  reqId?: string;
  method?: string;
  path?: string;
  status?: number;
  ms?: number;
}

const entries = (output: string): Entry[] =>
  output
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as Entry);
const requestLines = (output: string) => entries(output).filter((e) => e.msg === 'request');

describe('request log of npm start', { timeout: OWN_STACK_TIMEOUT_MS }, () => {
  // One stack for the cases with the same settings; each reads only the lines of its own requests.
  // TRUST_PROXY names 127.0.0.1: a request from there comes from the proxy, one from another
  // loopback address (127.0.0.2) from an untrusted client.
  let stack: RunningStack;
  beforeAll(async () => {
    stack = await startStack({ distDir: shared.distDir, baseUrl: shared.baseUrl, env: { LOG_REQUESTS: 'true', LOG_FORMAT: 'json', TRUST_PROXY: '127.0.0.1' } });
  }, OWN_STACK_TIMEOUT_MS);
  afterAll(() => stack?.stop());

  test('e2e log: one JSON line per request, by the front, with id, method, path, status, duration; no query strings, addresses or tokens', async () => {
    const before = requestLines(stack.output()).length;
    await raw(stack.url, `${THANKS_PATHS.en}?email=reader%40example.org&utm_source=x`);
    await raw(stack.url, `${API_PATHS.status}?token=secret-value`);
    await raw(stack.url, API_PATHS.waitlist, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'logged-never@example.org', consent: true }),
    });
    await raw(stack.url, '/someone@example.org/');
    await raw(stack.url, '/api/v1/users/someone%2540example.org');
    await raw(stack.url, `/api/v1/tokens/${JWT}`);
    await raw(stack.url, `${API_PATHS.token}?client_secret=secret-value`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'grant_type=client_credentials' });
    await raw(stack.url, '/api/v1/x%0A{"forged":1}');
    await vi.waitFor(() => expect(requestLines(stack.output())).toHaveLength(before + 8), { timeout: 5_000, interval: 10 });
    const lines = requestLines(stack.output()).slice(before);
    expect(lines.map((e) => [e.method, e.path, e.status])).toEqual([
      ['GET', THANKS_PATHS.en, 200],
      ['GET', API_PATHS.status, 200],
      ['POST', API_PATHS.waitlist, 200],
      ['GET', '/[redacted]/', 404],
      ['GET', '/api/v1/users/[redacted]', 404],
      ['GET', '/api/v1/tokens/[redacted]', 404],
      ['POST', API_PATHS.token, 401],
      ['GET', '/api/v1/x%0A{"forged":1}', 404],
    ]);
    for (const line of lines) {
      expect(line).toMatchObject({ level: 'info', name: 'front' });
      expect(line.reqId).toMatch(/^[0-9a-f-]{36}$/);
      expect(line.ms).toBeGreaterThanOrEqual(0);
      expect(Date.parse(line.time)).not.toBeNaN();
    }
    expect(new Set(lines.map((e) => e.reqId)).size).toBe(lines.length);
    // The sidecar writes no request lines of its own: an API request appears once.
    expect(stack.output()).not.toMatch(/"name":"sidecar"[^\n]*"(GET|POST) /);
    for (const secret of ['example.org', 'email=', 'utm_source', 'token=', 'secret-value', JWT.split('.')[1]]) expect(stack.output()).not.toContain(secret);
    // Every line of the output is whole: a percent-encoded newline forges nothing.
    expect(stack.output().split('\n').filter((line) => line.includes('forged'))).toHaveLength(1);
  });

  test('e2e log: X-Request-Id of an untrusted client is replaced; that of a TRUST_PROXY peer is kept', async () => {
    const before = requestLines(stack.output()).length;
    await raw(stack.url, API_PATHS.status, { headers: { 'x-request-id': 'client-chosen-id' }, from: '127.0.0.2' });
    await vi.waitFor(() => expect(requestLines(stack.output())).toHaveLength(before + 1), { timeout: 5_000, interval: 10 });
    expect(requestLines(stack.output())[before].reqId).not.toBe('client-chosen-id');

    await raw(stack.url, API_PATHS.status, { headers: { 'x-request-id': 'proxy-chosen-id' } });
    await vi.waitFor(() => expect(requestLines(stack.output())).toHaveLength(before + 2), { timeout: 5_000, interval: 10 });
    expect(requestLines(stack.output())[before + 1].reqId).toBe('proxy-chosen-id');
  });
});

describe('log of npm start without request lines', { timeout: OWN_STACK_TIMEOUT_MS }, () => {
  test('e2e log: start-up and shutdown lines say where it listens, which store and how many records; LOG_REQUESTS=false prints no request lines', async () => {
    const stack = await startStack({ distDir: shared.distDir, baseUrl: shared.baseUrl, env: { LOG_REQUESTS: 'false', LOG_FORMAT: 'json' } });
    try {
      await raw(stack.url, THANKS_PATHS.en);
      await raw(stack.url, API_PATHS.status);
    } finally {
      await stack.stop();
    }
    expect(requestLines(stack.output())).toEqual([]);
    expect(stack.output()).not.toMatch(/(GET|POST) \//);
    const messages = entries(stack.output()).map((e) => `${e.name}: ${e.msg}`);
    expect(messages).toContainEqual(expect.stringMatching(new RegExp(`^front: listening on ${stack.url}`)));
    expect(messages).toContainEqual(expect.stringMatching(/^sidecar: sidecar listening on /));
    expect(messages).toContainEqual(expect.stringMatching(new RegExp(`^sidecar: .*${stack.dataDir}.*\\b0 records`)));
    expect(messages).toContainEqual(expect.stringMatching(/^sidecar: sidecar stopped/));
    expect(messages).toContainEqual(expect.stringMatching(/^front: stopped: /));
  });
});
