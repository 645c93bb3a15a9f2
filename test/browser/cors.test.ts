/**
 * CORS in a real browser: a page on another origin (its own little server) calls the API of a
 * stack started with CORS_ORIGINS. A listed origin signs up and reads statistics (Bearer token,
 * so a preflight with Authorization); an unlisted origin is refused by the browser.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, inject, test } from 'vitest';
import { API_PATHS, SANDBOX_CLIENT_ID, SANDBOX_CLIENT_SECRET, STATS_SCOPE } from '../../api/contract/index.ts';
import { OWN_STACK_TIMEOUT_MS, startStack, type RunningStack } from '../support/stack.ts';
import { pagePerTest } from './support/page-per-test.ts';

const shared = inject('stack');
const newPage = pagePerTest();
let partner: http.Server;
let partnerOrigin: string;
let stranger: http.Server;
let strangerOrigin: string;
let stack: RunningStack;

async function originServer(): Promise<[http.Server, string]> {
  const server = http.createServer((_req, res) => res.writeHead(200, { 'Content-Type': 'text/html' }).end('<!doctype html><title>partner</title>'));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  // localhost, not 127.0.0.1: another host as well as another port than the API.
  return [server, `http://localhost:${(server.address() as AddressInfo).port}`];
}

beforeAll(async () => {
  [partner, partnerOrigin] = await originServer();
  [stranger, strangerOrigin] = await originServer();
  stack = await startStack({ distDir: shared.distDir, baseUrl: shared.baseUrl, env: { CORS_ORIGINS: partnerOrigin } });
}, OWN_STACK_TIMEOUT_MS);
afterAll(async () => {
  await stack?.stop();
  await Promise.all([partner, stranger].map((s) => new Promise((resolve) => s?.close(resolve))));
});

/** Runs fetch in the page; a CORS refusal comes back as { error }. */
async function fetchFrom(origin: string, url: string, init: { method?: string; headers?: Record<string, string>; body?: string }) {
  const page = await newPage();
  await page.goto(`${origin}/`);
  return page.evaluate(
    async ([target, options]) => {
      try {
        const response = await fetch(target, options);
        return { status: response.status, body: await response.text(), remaining: response.headers.get('RateLimit-Remaining') };
      } catch (error) {
        return { error: String(error) };
      }
    },
    [url, init] as const,
  );
}

async function sandboxToken(): Promise<string> {
  const response = await fetch(`${stack.url}/sandbox${API_PATHS.token}`, {
    method: 'POST',
    headers: { authorization: `Basic ${btoa(`${SANDBOX_CLIENT_ID}:${SANDBOX_CLIENT_SECRET}`)}`, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'client_credentials', scope: STATS_SCOPE }).toString(),
  });
  return ((await response.json()) as { access_token: string }).access_token;
}

test('cors (browser): a listed origin signs up with JSON and reads the rate-limit headers', async () => {
  const result = await fetchFrom(partnerOrigin, `${stack.url}/sandbox${API_PATHS.waitlist}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ email: 'ada@example.com', consent: true }),
  });
  expect(result).toMatchObject({ status: 200, body: '{"accepted":true}' });
  expect(Number(result.remaining)).toBeGreaterThan(0);
});

test('cors (browser): a listed origin reads statistics with a Bearer token (preflight with Authorization)', async () => {
  const token = await sandboxToken();
  const result = await fetchFrom(partnerOrigin, `${stack.url}/sandbox${API_PATHS.stats}`, { headers: { Authorization: `Bearer ${token}` } });
  expect(result.status).toBe(200);
  expect(JSON.parse(result.body!)).toEqual(expect.any(Object));
});

test('cors (browser): an origin not on the list cannot sign up or read statistics', async () => {
  const signup = await fetchFrom(strangerOrigin, `${stack.url}/sandbox${API_PATHS.waitlist}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ email: 'eve@example.com', consent: true }),
  });
  expect(signup.error).toMatch(/Failed to fetch/);
  const stats = await fetchFrom(strangerOrigin, `${stack.url}/sandbox${API_PATHS.stats}`, { headers: { Authorization: 'Bearer x' } });
  expect(stats.error).toMatch(/Failed to fetch/);
});
