/**
 * Contract part 4: every status of the status table, for every operation, in production and in
 * the sandbox. Each status has one scenario that provokes it; a status without one fails the test.
 */
import { randomUUID } from 'node:crypto';
import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BODY_LIMIT_BYTES, ENVIRONMENTS, ROUTES, SANDBOX_CLIENT_ID, SANDBOX_CLIENT_SECRET, STATS_SCOPE, environmentUrls, type Environment, type RouteId } from '../../api/contract/index.ts';
import { createApp } from '../../api/sidecar/app.ts';
import { send, type ApiResult } from '../support/request.ts';
import { describeEachBackend } from './support/backends.ts';
import { BASE_URL, ManualClock, harness, type Harness } from './support/harness.ts';
import { envPath, formPost, from, jsonPost, plainBasic } from './support/requests.ts';

describeEachBackend('statuses', (backend) => {
  let h: Harness;
  let limited: Harness;
  beforeAll(async () => {
    h = await harness({}, backend);
    limited = await harness({ RATE_LIMIT_STANDARD: '1', RATE_LIMIT_RELAXED: '1' }, backend);
  });
  afterAll(async () => {
    await h.close();
    await limited.close();
  });

  type Scenario = (env: Environment, path: string) => Promise<ApiResult>;

  const failingBody = (type: string): RequestInit =>
    ({ method: 'POST', headers: { 'content-type': type }, body: new ReadableStream({ pull: (c) => c.error(new Error('reset')) }), duplex: 'half' }) as RequestInit;
  const basicOf = (env: Environment) => (env === 'production' ? plainBasic(h.client.id, h.client.secret) : plainBasic(SANDBOX_CLIENT_ID, SANDBOX_CLIENT_SECRET));
  async function statsToken(env: Environment, scope: string): Promise<string> {
    const urls = environmentUrls(BASE_URL, env);
    const iat = Math.floor(h.clock.now() / 1000);
    return new SignJWT({ client_id: 'c', scope }).setProtectedHeader({ alg: 'HS256', typ: 'at+jwt' })
      .setIssuer(urls.issuer).setAudience(urls.resource).setSubject('c').setJti(randomUUID()).setIssuedAt(iat).setExpirationTime(iat + 900)
      .sign(h.keys[env]);
  }
  const twice = async (path: string, init: RequestInit) => {
    const address = `192.0.2.${Math.floor(Math.random() * 250) + 1}`;
    const withAddress = { ...init, headers: { ...(init.headers as Record<string, string>), ...from(address) } };
    await send(limited.app, path, withAddress);
    return send(limited.app, path, withAddress);
  };
  const waitlist: Partial<Record<number, Scenario>> = {
    200: (_env, path) => send(h.app, path, jsonPost({ email: 'ok@example.com', consent: true })),
    303: (_env, path) => send(h.app, path, formPost({ email: 'ok@example.com', consent: 'on' })),
    400: (_env, path) => send(h.app, path, jsonPost('{')),
    405: (_env, path) => send(h.app, path, { method: 'GET' }),
    413: (_env, path) => send(h.app, path, jsonPost(' '.repeat(BODY_LIMIT_BYTES + 1))),
    415: (_env, path) => send(h.app, path, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'x' }),
    422: (_env, path) => send(h.app, path, jsonPost({ email: 'nope', consent: true })),
    429: (_env, path) => twice(path, jsonPost({ email: 'ok@example.com', consent: true })),
    500: (_env, path) => send(h.app, path, failingBody('application/json')),
  };

  const SCENARIOS: Record<Exclude<RouteId, 'mcp'>, Partial<Record<number, Scenario>>> = {
    getStatus: {
      200: (_env, path) => send(h.app, path),
      405: (_env, path) => send(h.app, path, { method: 'POST' }),
      429: (_env, path) => twice(path, {}),
      500: (_env, path) => send(createApp({ ...h, clock: new ManualClock(9e15) }), path),
    },
    createToken: {
      200: (env, path) => send(h.app, path, formPost('grant_type=client_credentials', { authorization: basicOf(env) })),
      400: (env, path) => send(h.app, path, formPost('scope=', { authorization: basicOf(env) })),
      401: (_env, path) => send(h.app, path, formPost('grant_type=client_credentials', { authorization: plainBasic('nobody', 'nothing') })),
      405: (_env, path) => send(h.app, path, { method: 'GET' }),
      413: (_env, path) => send(h.app, path, formPost(`grant_type=${'x'.repeat(BODY_LIMIT_BYTES)}`)),
      429: (_env, path) => twice(path, { method: 'GET' }),
      500: (_env, path) => send(h.app, path, failingBody('application/x-www-form-urlencoded')),
    },
    joinWaitlist: waitlist,
    joinWaitlistLegacy: waitlist,
    getWaitlistStats: {
      200: async (env, path) => send(h.app, path, { headers: { authorization: `Bearer ${await statsToken(env, STATS_SCOPE)}` } }),
      401: (_env, path) => send(h.app, path),
      403: async (env, path) => send(h.app, path, { headers: { authorization: `Bearer ${await statsToken(env, '')}` } }),
      405: (_env, path) => send(h.app, path, { method: 'DELETE' }),
      429: (_env, path) => twice(path, {}),
      500: async (env, path) =>
        send(createApp({ ...h, keys: { ...h.keys, [env]: new Uint8Array(0) } }), path, { headers: { authorization: `Bearer ${await statsToken(env, STATS_SCOPE)}` } }),
    },
    getApiIndex: {
      200: (_env, path) => send(h.app, path),
      405: (_env, path) => send(h.app, path, { method: 'PUT' }),
      429: (_env, path) => twice(path, {}),
    },
  };

  /** The index is not in part 4's status table and has no dependency that can fail. */
  const UNREACHABLE = new Set(['getApiIndex 500']);

  for (const env of ENVIRONMENTS) {
    for (const route of ROUTES) {
      describe(`${env} ${route.id}`, () => {
        for (const status of route.statuses) {
          if (UNREACHABLE.has(`${route.id} ${status}`)) continue;
          it(`statuses: ${route.id} can answer ${status}`, async () => {
            const scenario = SCENARIOS[route.id][status];
            expect(scenario, `no scenario for ${route.id} ${status}`).toBeDefined();
            const res = await scenario!(env, envPath(env, route.path));
            expect(res.status).toBe(status);
          });
        }
      });
    }
  }
});
