import http from 'node:http';
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest';
import { API_PATHS, API_VERSION, BODY_LIMIT_BYTES, ERROR_STATUS, THANKS_PATHS } from '../../api/contract/index.ts';
import { raw } from '../front/client.ts';
import { OWN_STACK_TIMEOUT_MS, startStack, type RunningStack } from '../support/stack.ts';

const shared = inject('stack');

describe('front -> sidecar on the real stack', () => {
  test('e2e proxy: the status probe answers through the front with the API headers', async () => {
    const res = await raw(shared.baseUrl, `${API_PATHS.status}?probe=1`);
    expect(res.status).toBe(200);
    expect(res.headers['x-api-version']).toBe(API_VERSION);
    expect(res.headers['ratelimit-limit']).toBeDefined();
    expect(JSON.parse(res.text).status).toBe('ok');
  });

  test('e2e proxy: a form sign-up is answered 303 to the thanks page (the front passes redirects through)', async () => {
    const res = await raw(shared.baseUrl, API_PATHS.waitlist, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'email=front-e2e%40example.org&consent=true&lang=de',
    });
    expect(res.status).toBe(303);
    expect(new URL(res.headers.location!, shared.baseUrl).pathname).toBe(THANKS_PATHS.de);
  });

  test('e2e proxy: a 10 MB upload gets its 413 while the body is still being sent (the front reads no more than one byte past the limit first)', async () => {
    const url = new URL(shared.baseUrl);
    const total = 10 * 1024 * 1024;
    const req = http.request({ host: url.hostname, port: url.port, method: 'POST', path: API_PATHS.waitlist, headers: { 'content-type': 'application/json', 'content-length': String(total) } });
    req.on('error', () => {});
    const answer = new Promise<{ status: number; body: string }>((resolve) =>
      req.on('response', (res) => {
        let body = '';
        res.on('data', (chunk) => (body += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      }),
    );
    // Four times the limit, and far less than the declared 10 MB: the answer must come without the rest.
    req.write(Buffer.alloc(4 * BODY_LIMIT_BYTES, ' '));
    const { status, body } = await answer;
    req.destroy();
    expect(status).toBe(ERROR_STATUS.payload_too_large);
    expect(JSON.parse(body).error).toBe('payload_too_large');
  });
});

describe('X-Forwarded-For on the real stack (rate-limit buckets show which client the sidecar saw)', () => {
  const LIMIT = 2;
  const tight = { RATE_LIMIT_STANDARD: String(LIMIT), RATE_LIMIT_RELAXED: String(LIMIT) };
  let untrusting: RunningStack;
  let trusting: RunningStack;
  beforeAll(async () => {
    [untrusting, trusting] = await Promise.all([
      startStack({ distDir: shared.distDir, baseUrl: shared.baseUrl, env: tight }),
      startStack({ distDir: shared.distDir, baseUrl: shared.baseUrl, env: { ...tight, TRUST_PROXY: '127.0.0.1' } }),
    ]);
  }, OWN_STACK_TIMEOUT_MS);
  afterAll(() => Promise.all([untrusting?.stop(), trusting?.stop()]), OWN_STACK_TIMEOUT_MS);

  const burst = (stack: RunningStack) =>
    Promise.all(Array.from({ length: LIMIT + 1 }, (_, i) => raw(stack.url, API_PATHS.index, { headers: { 'x-forwarded-for': `198.51.100.${i + 1}` } })).map((p) => p.then((r) => r.status)));

  test('e2e X-Forwarded-For: a client cannot pick its bucket by sending the header (it is overwritten)', async () => {
    const statuses = await burst(untrusting);
    expect(statuses.filter((s) => s === ERROR_STATUS.rate_limited)).toHaveLength(1);
  });

  test('e2e X-Forwarded-For: behind a configured proxy (TRUST_PROXY), each forwarded client has its own bucket', async () => {
    const statuses = await burst(trusting);
    expect(statuses.every((s) => s === 200)).toBe(true);
  });
});
