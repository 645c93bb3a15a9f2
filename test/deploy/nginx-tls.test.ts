/**
 * docs/deploy/nginx/waitlist.conf + upstream-one.conf on real nginx, TLS with a certificate made
 * now, in front of the real stack (scripts/start.ts) built for the https:// address.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { API_PATHS, ENV_PREFIX, THANKS_PATHS } from '../../api/contract/paths.ts';
import { loadConfig } from '../../api/config.ts';
import { buildSite } from '../../api/start/site-build.ts';
import { OWN_STACK_TIMEOUT_MS, ROOT, forgetBuild, freePort, stackEnv, startStacks, type RunningStack } from '../support/stack.ts';
import { describeWithEngine } from '../support/engines/require.ts';
import { NGINX_AND_OPENSSL, call, startNginx, type RunningNginx } from './nginx.ts';

/** The relaxed policy (status probe) at 3 per window, so a few calls show whose window they count in. */
const LIMIT = 3;

describeWithEngine('nginx and openssl', NGINX_AND_OPENSSL, 'nginx TLS in front of the product (docs/deploy/nginx/waitlist.conf)', () => {
  let dist: string;
  let nginx: RunningNginx;
  let trusting: RunningStack;
  /** A second nginx in front of a stack without TRUST_PROXY. */
  let untrustedNginx: RunningNginx;
  let untrusting: RunningStack;

  beforeAll(async () => {
    dist = await mkdtemp(path.join(tmpdir(), 'deploy-dist-'));
    const [frontPort, untrustingPort, tlsPort] = [await freePort(), await freePort(), await freePort()];
    const url = `https://127.0.0.1:${tlsPort}`;
    // As the guide says: BASE_URL is the public https:// address. The sample operator details are
    // still in place, so this is a staging build. Built here, once, so that both stacks start from it.
    const staging = { RATE_LIMIT_RELAXED: String(LIMIT), ALLOW_SAMPLE_DETAILS: 'true' };
    const env = stackEnv({ BASE_URL: url, DIST_DIR: dist, ...staging });
    await Promise.all([
      buildSite(ROOT, loadConfig(env), env, { quiet: true }),
      (async () => {
        nginx = await startNginx('upstream-one.conf', [`127.0.0.1:${frontPort}`], tlsPort);
        untrustedNginx = await startNginx('upstream-one.conf', [`127.0.0.1:${untrustingPort}`]);
      })(),
    ]);
    // TRUST_PROXY is nginx's address, as the guide says; the other stack lacks it.
    [trusting, untrusting] = await startStacks([
      { port: frontPort, distDir: dist, baseUrl: url, env: { ...staging, TRUST_PROXY: '127.0.0.1', LOG_REQUESTS: 'true' }, timeoutMs: OWN_STACK_TIMEOUT_MS },
      { port: untrustingPort, distDir: dist, baseUrl: url, env: staging, timeoutMs: OWN_STACK_TIMEOUT_MS },
    ]);
  }, OWN_STACK_TIMEOUT_MS * 2);

  afterAll(async () => {
    await Promise.all([trusting?.stop(), untrusting?.stop()]);
    await Promise.all([nginx?.stop(), untrustedNginx?.stop()]);
    if (dist) await Promise.all([rm(dist, { recursive: true, force: true }), forgetBuild(dist)]);
  });

  test('pages through TLS: 200 HTML with HSTS (RFC 6797) and one request id', async () => {
    const page = await call(`${nginx.url}/`);
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.headers['strict-transport-security']).toBe('max-age=63072000');
    expect(page.headers['x-request-id']).toMatch(/^[0-9a-f]{32}$/);
    expect(page.body).toContain(`${nginx.url}/`);
  });

  test('plain HTTP -> 301 to the same path on https', async () => {
    const answer = await call(`${nginx.plainUrl}/developers/?x=1`, { headers: { host: 'waitlist.test' } });
    expect(answer.status).toBe(301);
    expect(answer.headers.location).toBe('https://waitlist.test/developers/?x=1');
  });

  test('API through TLS: status, a sign-up (JSON 200) and a form post (303), HSTS on each', async () => {
    const status = await call(`${nginx.url}${API_PATHS.status}`, { from: '127.0.0.4' });
    expect(status.status).toBe(200);
    expect(JSON.parse(status.body)).toMatchObject({ status: 'ok', environment: 'production' });
    const signUp = await call(`${nginx.url}${API_PATHS.waitlist}`, { method: 'POST', body: JSON.stringify({ email: 'ada@example.com', consent: true }) });
    expect([signUp.status, signUp.body]).toEqual([200, '{"accepted":true}']);
    const form = await call(`${nginx.url}${ENV_PREFIX.sandbox}${API_PATHS.waitlist}`, {
      method: 'POST', body: 'email=bob@example.com&consent=on&lang=de', headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect([form.status, form.headers.location]).toEqual([303, THANKS_PATHS.de]);
    for (const answer of [status, signUp, form]) expect(answer.headers['strict-transport-security']).toBe('max-age=63072000');
  });

  test('TRUST_PROXY=nginx: each client is limited by its own address, not by nginx\'s', async () => {
    const url = `${nginx.url}${API_PATHS.status}`;
    for (let i = 0; i < LIMIT; i++) expect((await call(url, { from: '127.0.0.2' })).status).toBe(200);
    expect((await call(url, { from: '127.0.0.2' })).status).toBe(429);
    const other = await call(url, { from: '127.0.0.3' });
    expect(other.status).toBe(200);
    expect(other.headers['ratelimit-remaining']).toBe(String(LIMIT - 1));
  });

  test('a client cannot pick its address: an X-Forwarded-For it sends is replaced by nginx', async () => {
    const url = `${nginx.url}${API_PATHS.status}`;
    const spoof = { 'x-forwarded-for': '198.51.100.7' };
    const first = await call(url, { from: '127.0.0.5', headers: spoof });
    const second = await call(url, { from: '127.0.0.5', headers: { 'x-forwarded-for': '198.51.100.8' } });
    expect([first.headers['ratelimit-remaining'], second.headers['ratelimit-remaining']]).toEqual([String(LIMIT - 1), String(LIMIT - 2)]);
  });

  test('the request id nginx gives a request is the one the product logs', async () => {
    const answer = await call(`${nginx.url}/thanks/`);
    const id = answer.headers['x-request-id'] as string;
    await expect.poll(() => trusting.output()).toContain(id);
  });

  test('without TRUST_PROXY every client counts as nginx: the guide\'s setting is what makes the limit per client', async () => {
    const url = `${untrustedNginx.url}${API_PATHS.status}`;
    for (let i = 0; i < LIMIT; i++) await call(url, { from: '127.0.0.2' });
    expect((await call(url, { from: '127.0.0.3' })).status).toBe(429);
  });
});
