/** Statistics (RFC 6750 §3, RFC 9068 §4, RFC 9728 §5.1): Bearer checks, challenges and the counts. */
import { randomUUID } from 'node:crypto';
import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_PATHS, ENVIRONMENTS, STATS_SCOPE, TOKEN_TTL_SECONDS, WaitlistStats, environmentUrls, type Environment } from '../../api/contract/index.ts';
import { createApp } from '../../api/sidecar/app.ts';
import { clientsPath, readClients, writeClients } from '../../api/sidecar/store/json/clients-file.ts';
import { send } from '../support/request.ts';
import { describeEachBackend } from './support/backends.ts';
import { BASE_URL, clientRecord, harness, type Harness } from './support/harness.ts';
import { envPath, issueToken, jsonPost, stableHeaders } from './support/requests.ts';

let h: Harness;
beforeAll(async () => {
  h = await harness();
});
afterAll(() => h.close());

const stats = (env: Environment) => envPath(env, API_PATHS.stats);
const bearer = (token: string) => ({ headers: { authorization: `Bearer ${token}` } });

async function tokenOf(env: Environment): Promise<string> {
  const { id, secret } = env === 'production' ? h.client : { id: 'sandbox', secret: 'sandbox' };
  return (await issueToken(h.app, env, id, secret)).body.access_token;
}

/** A token signed with the environment's real key, with chosen header and claims. */
async function forge(env: Environment, change: { header?: Record<string, unknown>; claims?: Record<string, unknown>; drop?: string[]; key?: Uint8Array } = {}) {
  const urls = environmentUrls(BASE_URL, env);
  const iat = Math.floor(h.clock.now() / 1000);
  const claims: Record<string, unknown> = { iss: urls.issuer, aud: urls.resource, sub: 'c1', client_id: 'c1', scope: STATS_SCOPE, iat, exp: iat + TOKEN_TTL_SECONDS, jti: randomUUID(), ...change.claims };
  for (const name of change.drop ?? []) delete claims[name];
  return new SignJWT(claims).setProtectedHeader({ alg: 'HS256', typ: 'at+jwt', ...change.header }).sign(change.key ?? h.keys[env]);
}

for (const env of ENVIRONMENTS) {
  describe(`${env} statistics`, () => {
    const metadata = environmentUrls(BASE_URL, env).protectedResourceMetadata;

    it('stats: a token of this environment -> 200 counts, no-store; HEAD the same headers without a body', async () => {
      const token = await tokenOf(env);
      const res = await send(h.app, stats(env), bearer(token));
      expect(res.status).toBe(200);
      expect(WaitlistStats.parse(res.body)).toEqual(res.body);
      expect(res.headers.get('cache-control')).toBe('no-store');
      const head = await send(h.app, stats(env), { method: 'HEAD', ...bearer(token) });
      expect([head.status, head.text]).toEqual([200, '']);
      expect(stableHeaders(head.headers)).toEqual(stableHeaders(res.headers));
    });

    it('stats: the scheme name is case-insensitive (bearer, BEARER) -> 200', async () => {
      const token = await tokenOf(env);
      for (const scheme of ['bearer', 'BEARER']) {
        expect((await send(h.app, stats(env), { headers: { authorization: `${scheme} ${token}` } })).status).toBe(200);
      }
    });

    for (const [why, authorization] of [
      ['no Authorization header', undefined],
      ['a Basic Authorization header', 'Basic c2FuZGJveDpzYW5kYm94'],
    ] as const) {
      it(`stats: ${why} -> 401 unauthorized, Bearer challenge without error, with resource_metadata`, async () => {
        const res = await send(h.app, stats(env), authorization ? { headers: { authorization } } : {});
        expect([res.status, res.body.error]).toEqual([401, 'unauthorized']);
        expect(res.headers.get('www-authenticate')).toBe(`Bearer realm="${env === 'production' ? 'waitlist' : 'waitlist-sandbox'}", resource_metadata="${metadata}"`);
      });
    }

    const invalid: [string, () => Promise<string>][] = [
      ['an empty Bearer token', async () => ''],
      ['two tokens', async () => 'a.b.c d.e.f'],
      ['a random string', async () => 'not-a-jwt'],
      ['a truncated JWT', async () => (await tokenOf(env)).split('.').slice(0, 2).join('.')],
      ['a flipped signature byte', async () => {
        const token = await tokenOf(env);
        const last = token.at(-2) === 'A' ? 'B' : 'A';
        return `${token.slice(0, -2)}${last}${token.at(-1)}`;
      }],
      ['alg none', async () => {
        const [, payload] = (await tokenOf(env)).split('.');
        return `${Buffer.from(JSON.stringify({ alg: 'none', typ: 'at+jwt' })).toString('base64url')}.${payload}.`;
      }],
      ['HS512', async () => forge(env, { header: { alg: 'HS512' } }).catch(() => new SignJWT({}).setProtectedHeader({ alg: 'HS512' }).sign(new Uint8Array(64)))],
      ['a different key', async () => forge(env, { key: new Uint8Array(32).fill(7) })],
      ['typ JWT', async () => forge(env, { header: { typ: 'JWT' } })],
      ['a foreign issuer', async () => forge(env, { claims: { iss: 'https://evil.example' } })],
      ['the issuer with a trailing slash', async () => forge(env, { claims: { iss: `${environmentUrls(BASE_URL, env).issuer}/` } })],
      ['a foreign audience', async () => forge(env, { claims: { aud: `${BASE_URL}/api/v2` } })],
      ['no jti', async () => forge(env, { drop: ['jti'] })],
      ['no client_id', async () => forge(env, { drop: ['client_id'] })],
      ['no scope claim', async () => forge(env, { drop: ['scope'] })],
      ['an iat two minutes in the future', async () => forge(env, { claims: { iat: Math.floor(h.clock.now() / 1000) + 120 } })],
      ['expired beyond the 30 s leeway', async () => forge(env, { claims: { exp: Math.floor(h.clock.now() / 1000) - 31 } })],
      ['the other environment\'s token', async () => tokenOf(env === 'production' ? 'sandbox' : 'production')],
      ['the other environment\'s key with this environment\'s claims', async () => forge(env, { key: h.keys[env === 'production' ? 'sandbox' : 'production'] })],
    ];
    for (const [why, make] of invalid) {
      it(`stats: ${why} -> 401 invalid_token with error="invalid_token" in the challenge`, async () => {
        const res = await send(h.app, stats(env), { headers: { authorization: `Bearer ${await make()}`.trim() } });
        expect([res.status, res.body.error]).toEqual([401, 'invalid_token']);
        expect(res.headers.get('www-authenticate')).toMatch(new RegExp(`^Bearer realm="[^"]+", error="invalid_token", resource_metadata="${metadata}"$`));
      });
    }

    it('stats: typ application/at+jwt and an expiry within the 30 s leeway are accepted -> 200', async () => {
      for (const token of [await forge(env, { header: { typ: 'application/at+jwt' } }), await forge(env, { claims: { exp: Math.floor(h.clock.now() / 1000) - 10 } })]) {
        expect((await send(h.app, stats(env), bearer(token))).status).toBe(200);
      }
    });

    it('stats: a token expires after 900 s (plus leeway) on the server clock', async () => {
      const token = await tokenOf(env);
      h.clock.advance(TOKEN_TTL_SECONDS);
      expect((await send(h.app, stats(env), bearer(token))).status).toBe(200);
      h.clock.advance(31);
      expect((await send(h.app, stats(env), bearer(token))).status).toBe(401);
    });

    it('stats: a token accepted before is checked against the clock again on every use', async () => {
      const token = await tokenOf(env);
      expect((await send(h.app, stats(env), bearer(token))).status).toBe(200);
      h.clock.advance(-31);
      expect((await send(h.app, stats(env), bearer(token))).status).toBe(401);
      h.clock.advance(31 + TOKEN_TTL_SECONDS + 31);
      expect((await send(h.app, stats(env), bearer(token))).status).toBe(401);
    });

    it('stats: a token accepted in its environment is still refused in the other', async () => {
      const token = await tokenOf(env);
      expect((await send(h.app, stats(env), bearer(token))).status).toBe(200);
      const res = await send(h.app, stats(env === 'production' ? 'sandbox' : 'production'), bearer(token));
      expect([res.status, res.body.error]).toEqual([401, 'invalid_token']);
    });

    it('stats: a token without waitlist:stats:read -> 403 insufficient_scope, challenge with error and scope', async () => {
      const { id, secret, record } = await clientRecord('no scopes', []);
      const path = clientsPath(h.dir);
      await writeClients(path, [...(await readClients(path)), record]);
      const token = env === 'production' ? (await issueToken(h.app, env, id, secret)).body.access_token : await forge(env, { claims: { scope: '' } });
      if (env === 'production') expect(token).toBeTypeOf('string');
      const res = await send(h.app, stats(env), bearer(token));
      expect([res.status, res.body.error]).toEqual([403, 'insufficient_scope']);
      expect(res.headers.get('www-authenticate')).toMatch(new RegExp(`^Bearer realm="[^"]+", error="insufficient_scope", scope="${STATS_SCOPE}", resource_metadata="${metadata}"$`));
    });

    it('stats: POST, PUT or FOO -> 405 with Allow: GET, HEAD', async () => {
      for (const method of ['POST', 'PUT', 'FOO']) {
        const res = await send(h.app, stats(env), { method });
        expect([res.status, res.headers.get('allow')]).toEqual([405, 'GET, HEAD']);
      }
    });

    it('stats: a broken signing key -> 500 internal_error, not 401', async () => {
      const token = await tokenOf(env);
      const app = createApp({ ...h, keys: { ...h.keys, [env]: new Uint8Array(0) } });
      const res = await send(app, stats(env), bearer(token));
      expect([res.status, res.body.error]).toEqual([500, 'internal_error']);
    });
  });
}

describeEachBackend('statistics: the numbers', (backend) => {
  it('stats: production counts by language, role, use case and form, 7 and 30 days by first sign-up, no addresses', async () => {
    const own = await harness({}, backend);
    try {
      const signUp = (body: Record<string, unknown>) => send(own.app, API_PATHS.waitlist, jsonPost({ consent: true, ...body }));
      await signUp({ email: 'old@example.com', role: 'founder', building: 'rag', source: 'hero', lang: 'de' });
      own.clock.advance(20 * 86400);
      await signUp({ email: 'mid@example.com', role: 'developer', source: 'cta' });
      own.clock.advance(9 * 86400);
      await signUp({ email: 'new@example.com', building: 'agents' });
      await signUp({ email: 'old@example.com', role: 'data' });
      own.clock.advance(2 * 86400);
      const token = (await issueToken(own.app, 'production', own.client.id, own.client.secret)).body.access_token;
      const res = await send(own.app, API_PATHS.stats, bearer(token));
      expect(res.body).toEqual({
        total: 3,
        last7Days: 1,
        last30Days: 2,
        byLang: { en: 2, de: 1 },
        byRole: { developer: 1, platform: 0, data: 1, founder: 0, other: 0, unanswered: 1 },
        byBuilding: { agents: 1, rag: 1, research: 0, extraction: 0, evaluating: 0, unanswered: 1 },
        bySource: { hero: 1, cta: 1, unanswered: 1 },
        computedAt: new Date(own.clock.now()).toISOString(),
      });
      expect(res.text).not.toContain('@');
    } finally {
      await own.close();
    }
  });
});

describe('statistics: the sandbox numbers', () => {
  it('stats: the sandbox returns the same example numbers on every call, and production sign-ups do not change them', async () => {
    const token = await tokenOf('sandbox');
    const first = await send(h.app, stats('sandbox'), bearer(token));
    await send(h.app, API_PATHS.waitlist, jsonPost({ email: 'counted@example.com', consent: true }));
    h.clock.advance(60);
    const second = await send(h.app, stats('sandbox'), bearer(token));
    expect(second.body).toEqual(first.body);
    expect(first.body.total).toBeGreaterThan(0);
  });
});
