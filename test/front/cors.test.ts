/**
 * CORS at the front (api/front/cors.ts), through the real proxy to a stand-in sidecar that answers
 * like the real one: preflights for listed origins, nothing for others, Vary: Origin beside the
 * sidecar's own fields.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { loadConfig } from '../../api/config.ts';
import { API_PATHS } from '../../api/contract/paths.ts';
import { createFrontHandler } from '../../api/front/app.ts';
import { CORS_MAX_AGE_SECONDS, createCors } from '../../api/front/cors.ts';
import { createProxy } from '../../api/front/proxy.ts';
import { listen, type Listening } from '../../api/front/server.ts';
import { startFront, type Front } from '../../api/front/start.ts';
import { createLogger } from '../../api/log/logger.ts';
import { API_VERSION } from '../../api/contract/index.ts';
import type { Site } from '../../api/front/static.ts';
import { trustedProxies } from '../../api/net/client-address.ts';

const ALLOWED = 'https://partner.example';
const OTHER = 'https://evil.example';
const site: Site = { routes: new Map(), notFound: () => ({}) };

let sidecar: http.Server;
let front: Listening;
let plainFront: Listening;
/** Built by startFront, as npm start builds it. */
let apiFront: Front;
const seen: string[] = [];
let closeProxies: (() => void)[] = [];

beforeAll(async () => {
  // Answers like the sidecar: 405 for OPTIONS, and a Vary of its own on stats, to prove Origin is kept.
  sidecar = http.createServer((req, res) => {
    seen.push(`${req.method} ${req.url}`);
    if (req.method === 'OPTIONS') return void res.writeHead(405, { Allow: 'POST', 'Content-Length': '0' }).end();
    const vary = req.url?.endsWith('/stats') ? { Vary: 'Accept-Encoding' } : {};
    res.writeHead(200, { 'Content-Type': 'application/json', 'X-API-Version': '1', ...vary }).end('{"ok":true}');
  });
  await new Promise<void>((resolve) => sidecar.listen(0, '127.0.0.1', resolve));
  const { port } = sidecar.address() as AddressInfo;
  const make = async (origins: string[]) => {
    const { proxy, close } = createProxy({ upstream: () => ({ host: '127.0.0.1', port }), trusted: trustedProxies([]) });
    closeProxies.push(close);
    return listen(createFrontHandler({ site, proxy, cors: createCors(origins) }), '127.0.0.1', 0);
  };
  front = await make([ALLOWED]);
  plainFront = await make([]);
  const config = loadConfig({ HOST: '127.0.0.1', PORT: '0', CORS_ORIGINS: ALLOWED, LOG_LEVEL: 'silent' });
  apiFront = await startFront(config, { site, upstream: () => ({ host: '127.0.0.1', port }), logger: createLogger('front', config) });
});
afterAll(async () => {
  await front?.close(1_000);
  await plainFront?.close(1_000);
  await apiFront?.close(1_000);
  apiFront?.closeProxy();
  for (const close of closeProxies) close();
  await new Promise((resolve) => sidecar?.close(resolve));
});

const preflight = (base: string, path: string, origin: string, method: string) =>
  fetch(`${base}${path}`, { method: 'OPTIONS', headers: { origin, 'access-control-request-method': method, 'access-control-request-headers': 'authorization, content-type' } });

describe('CORS', () => {
  test.each([
    [API_PATHS.waitlist, 'POST', 'POST'],
    [`/sandbox${API_PATHS.waitlist}`, 'POST', 'POST'],
    [API_PATHS.stats, 'GET', 'GET, HEAD'],
    [`/sandbox${API_PATHS.stats}`, 'GET', 'GET, HEAD'],
  ])('cors: preflight from a listed origin for %s (%s) -> 204 with methods, headers incl. Authorization, Max-Age, Vary: Origin', async (path, method, methods) => {
    const before = seen.length;
    const response = await preflight(front.url, path, ALLOWED, method);
    expect(response.status).toBe(204);
    expect(response.headers.get('access-control-allow-origin')).toBe(ALLOWED);
    expect(response.headers.get('access-control-allow-methods')).toBe(methods);
    expect(response.headers.get('access-control-allow-headers')).toMatch(/\bAuthorization\b/);
    expect(response.headers.get('access-control-allow-headers')).toMatch(/\bContent-Type\b/);
    expect(response.headers.get('access-control-max-age')).toBe(String(CORS_MAX_AGE_SECONDS));
    expect(response.headers.get('vary')).toMatch(/\bOrigin\b/);
    expect(response.headers.get('access-control-allow-credentials')).toBeNull();
    expect(seen.length, 'the front answers the preflight itself').toBe(before);
  });

  test('cors: a preflight the front answers carries X-API-Version and nosniff like every /api answer', async () => {
    const response = await preflight(apiFront.url, API_PATHS.waitlist, ALLOWED, 'POST');
    expect(response.status).toBe(204);
    expect(response.headers.get('x-api-version')).toBe(API_VERSION);
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
  });

  test.each([
    ['an origin not on the list', API_PATHS.waitlist, OTHER, 'POST'],
    ['a method the path does not allow', API_PATHS.stats, ALLOWED, 'DELETE'],
    ['the token endpoint (secrets stay out of browsers)', API_PATHS.token, ALLOWED, 'POST'],
  ])('cors: preflight for %s gets no CORS header (the sidecar answers it)', async (_why, path, origin, method) => {
    const response = await preflight(front.url, path, origin, method);
    expect(response.status).toBe(405);
    expect(response.headers.get('access-control-allow-origin')).toBeNull();
    expect(response.headers.get('access-control-allow-methods')).toBeNull();
  });

  test('cors: a listed origin gets Allow-Origin and the exposed API headers on the proxied answer', async () => {
    const response = await fetch(`${front.url}${API_PATHS.waitlist}`, { method: 'POST', headers: { origin: ALLOWED, 'content-type': 'application/json' }, body: '{}' });
    expect(response.status).toBe(200);
    expect(response.headers.get('access-control-allow-origin')).toBe(ALLOWED);
    expect(response.headers.get('access-control-expose-headers')).toMatch(/\bRateLimit-Remaining\b.*\bRetry-After\b/);
    expect(response.headers.get('vary')).toBe('Origin');
    expect(response.headers.get('x-api-version')).toBe('1');
  });

  test("cors: the sidecar's own Vary keeps Origin added to it", async () => {
    const response = await fetch(`${front.url}${API_PATHS.stats}`, { headers: { origin: ALLOWED } });
    expect(response.headers.get('vary')).toBe('Accept-Encoding, Origin');
    expect(response.headers.get('access-control-allow-origin')).toBe(ALLOWED);
  });

  test('cors: another origin, or none, gets no Allow-Origin but still Vary: Origin', async () => {
    for (const headers of [{ origin: OTHER }, {}] as Record<string, string>[]) {
      const response = await fetch(`${front.url}${API_PATHS.waitlist}`, { method: 'POST', headers, body: '{}' });
      expect(response.headers.get('access-control-allow-origin')).toBeNull();
      expect(response.headers.get('vary')).toBe('Origin');
    }
  });

  test('cors: off by default: no CORS_ORIGINS, no CORS header, preflights reach the sidecar', async () => {
    expect(loadConfig({}).CORS_ORIGINS).toEqual([]);
    expect(createCors([])).toBeUndefined();
    const response = await preflight(plainFront.url, API_PATHS.waitlist, ALLOWED, 'POST');
    expect(response.status).toBe(405);
    expect(response.headers.get('access-control-allow-origin')).toBeNull();
  });

  test('config: CORS_ORIGINS is a comma-separated list of origins; a path or a non-http scheme is refused with the variable named', () => {
    expect(loadConfig({ CORS_ORIGINS: 'https://a.example, http://localhost:3000/' }).CORS_ORIGINS).toEqual(['https://a.example', 'http://localhost:3000']);
    for (const bad of ['https://a.example/app', 'ftp://a.example', '*', 'a.example']) {
      expect(() => loadConfig({ CORS_ORIGINS: bad }), bad).toThrow(/CORS_ORIGINS=.*expected a comma-separated list of origins/);
    }
  });
});
