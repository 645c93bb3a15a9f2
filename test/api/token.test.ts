/** Token endpoint (RFC 6749 §4.4): authentication methods, parameters, errors and the issued JWT. */
import { writeFile } from 'node:fs/promises';
import { decodeJwt, decodeProtectedHeader } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_PATHS, BODY_LIMIT_BYTES, ENVIRONMENTS, SANDBOX_CLIENT_ID, SANDBOX_CLIENT_SECRET, STATS_SCOPE, TOKEN_TTL_SECONDS, environmentUrls, type Environment } from '../../api/contract/index.ts';
import { createApp } from '../../api/sidecar/app.ts';
import { clientsPath, readClients, writeClients } from '../../api/sidecar/store/json/clients-file.ts';
import { send } from '../support/request.ts';
import { BASE_URL, clientRecord, harness, type Harness } from './support/harness.ts';
import { envPath, formPost, jsonPost, plainBasic, strictBasic } from './support/requests.ts';

let h: Harness;
beforeAll(async () => {
  h = await harness();
});
afterAll(() => h.close());

const token = (env: Environment) => envPath(env, API_PATHS.token);
const creds = (env: Environment) => (env === 'production' ? h.client : { id: SANDBOX_CLIENT_ID, secret: SANDBOX_CLIENT_SECRET });
const grant = 'grant_type=client_credentials';

function expectOAuthError(res: Awaited<ReturnType<typeof send>>, status: number, error: string) {
  expect([res.status, res.body]).toEqual([status, { error, error_description: expect.any(String) }]);
  expect(res.body.error_description).toMatch(/^[\x20\x21\x23-\x5b\x5d-\x7e]+$/);
  expect(res.headers.get('cache-control')).toBe('no-store');
  expect(res.headers.get('pragma')).toBe('no-cache');
}

for (const env of ENVIRONMENTS) {
  describe(`${env} token endpoint`, () => {
    const urls = environmentUrls(BASE_URL, env);

    it('token: client_secret_basic -> 200 Bearer token, 900 s, default scope, no-store and no-cache', async () => {
      const { id, secret } = creds(env);
      const res = await send(h.app, token(env), formPost(grant, { authorization: plainBasic(id, secret) }));
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ access_token: expect.any(String), token_type: 'Bearer', expires_in: TOKEN_TTL_SECONDS, scope: STATS_SCOPE });
      expect(res.body.refresh_token).toBeUndefined();
      expect(res.headers.get('cache-control')).toBe('no-store');
      expect(res.headers.get('pragma')).toBe('no-cache');
    });

    it('token: Basic with form-url-encoded halves (oauth4webapi style) -> 200', async () => {
      const { id, secret } = creds(env);
      const res = await send(h.app, token(env), formPost(grant, { authorization: strictBasic(id, secret) }));
      expect(res.status).toBe(200);
    });

    it('token: client_secret_post with a charset parameter -> 200', async () => {
      const { id, secret } = creds(env);
      const body = `${grant}&client_id=${encodeURIComponent(id)}&client_secret=${encodeURIComponent(secret)}`;
      const res = await send(h.app, token(env), formPost(body, { 'content-type': 'application/x-www-form-urlencoded;charset=UTF-8' }));
      expect(res.status).toBe(200);
    });

    it('token: the JWT is HS256 at+jwt with iss, aud, sub, client_id, scope, iat, exp = iat + 900 and a fresh jti', async () => {
      const { id, secret } = creds(env);
      const first = await send(h.app, token(env), formPost(grant, { authorization: plainBasic(id, secret) }));
      const second = await send(h.app, token(env), formPost(grant, { authorization: plainBasic(id, secret) }));
      expect(decodeProtectedHeader(first.body.access_token)).toEqual({ alg: 'HS256', typ: 'at+jwt' });
      const claims = decodeJwt(first.body.access_token);
      const iat = Math.floor(h.clock.now() / 1000);
      expect(claims).toEqual({
        iss: urls.issuer,
        aud: urls.resource,
        sub: id,
        client_id: id,
        scope: STATS_SCOPE,
        iat,
        exp: iat + TOKEN_TTL_SECONDS,
        jti: expect.any(String),
      });
      expect(decodeJwt(second.body.access_token).jti).not.toBe(claims.jti);
    });

    it('token: empty scope counts as absent, an explicit known scope is granted, unknown parameters are ignored -> 200', async () => {
      const { id, secret } = creds(env);
      for (const extra of ['&scope=', `&scope=${encodeURIComponent(STATS_SCOPE)}`, `&scope=${encodeURIComponent(`${STATS_SCOPE} ${STATS_SCOPE}`)}`, '&foo=bar&resource=']) {
        const res = await send(h.app, token(env), formPost(grant + extra, { authorization: plainBasic(id, secret) }));
        expect([extra, res.status, res.body.scope]).toEqual([extra, 200, STATS_SCOPE]);
      }
    });

    const badRequests: [string, () => RequestInit][] = [
      ['JSON body', () => jsonPost({ grant_type: 'client_credentials' }, { authorization: plainBasic(creds(env).id, creds(env).secret) })],
      ['no content type', () => ({ method: 'POST', headers: { authorization: plainBasic(creds(env).id, creds(env).secret) }, body: new Uint8Array(Buffer.from(grant)) })],
      ['missing grant_type', () => formPost('scope=', { authorization: plainBasic(creds(env).id, creds(env).secret) })],
      ['empty grant_type', () => formPost('grant_type=', { authorization: plainBasic(creds(env).id, creds(env).secret) })],
      ['grant_type twice', () => formPost(`${grant}&${grant}`, { authorization: plainBasic(creds(env).id, creds(env).secret) })],
      ['scope twice', () => formPost(`${grant}&scope=a&scope=b`, { authorization: plainBasic(creds(env).id, creds(env).secret) })],
      ['malformed form body', () => formPost(`${grant}&scope=%E0%A4`, { authorization: plainBasic(creds(env).id, creds(env).secret) })],
      ['Basic and body credentials together', () => formPost(`${grant}&client_id=${creds(env).id}&client_secret=${creds(env).secret}`, { authorization: plainBasic(creds(env).id, creds(env).secret) })],
      ['Basic and a body client_id', () => formPost(`${grant}&client_id=someone-else`, { authorization: plainBasic(creds(env).id, creds(env).secret) })],
    ];
    for (const [why, init] of badRequests) {
      it(`token: ${why} -> 400 invalid_request`, async () => {
        expectOAuthError(await send(h.app, token(env), init()), 400, 'invalid_request');
      });
    }

    it('token: grant_type password or authorization_code -> 400 unsupported_grant_type', async () => {
      for (const type of ['password', 'authorization_code', 'CLIENT_CREDENTIALS']) {
        const res = await send(h.app, token(env), formPost(`grant_type=${type}`, { authorization: plainBasic(creds(env).id, creds(env).secret) }));
        expectOAuthError(res, 400, 'unsupported_grant_type');
      }
    });

    it('token: unknown or wrongly cased scope -> 400 invalid_scope', async () => {
      for (const scope of ['nope:read', STATS_SCOPE.toUpperCase(), `${STATS_SCOPE} admin`]) {
        const res = await send(h.app, token(env), formPost(`${grant}&scope=${encodeURIComponent(scope)}`, { authorization: plainBasic(creds(env).id, creds(env).secret) }));
        expectOAuthError(res, 400, 'invalid_scope');
      }
    });

    const unauthorized: [string, () => RequestInit][] = [
      ['Basic with a wrong secret', () => formPost(grant, { authorization: plainBasic(creds(env).id, 'wrong-secret') })],
      ['Basic with an unknown client', () => formPost(grant, { authorization: plainBasic('nobody', creds(env).secret) })],
      ['a garbled Basic header', () => formPost(grant, { authorization: 'Basic !!!' })],
      ['another scheme', () => formPost(grant, { authorization: 'Bearer abc' })],
      ['client_secret_post with a wrong secret', () => formPost(`${grant}&client_id=${creds(env).id}&client_secret=wrong`)],
      ['client_id without a secret', () => formPost(`${grant}&client_id=${creds(env).id}`)],
      ['no client authentication', () => formPost(grant)],
      ['credentials only in the query string', () => formPost(grant)],
    ];
    for (const [why, init] of unauthorized) {
      it(`token: ${why} -> 401 invalid_client with a Basic challenge`, async () => {
        const path = why.includes('query') ? `${token(env)}?client_id=${creds(env).id}&client_secret=${creds(env).secret}` : token(env);
        const res = await send(h.app, path, init());
        expectOAuthError(res, 401, 'invalid_client');
        expect(res.headers.get('www-authenticate')).toMatch(/^Basic realm="[^"]+"/);
      });
    }

    it('token: the other environment\'s credentials -> 401 invalid_client', async () => {
      const other = env === 'production' ? { id: SANDBOX_CLIENT_ID, secret: SANDBOX_CLIENT_SECRET } : h.client;
      expectOAuthError(await send(h.app, token(env), formPost(grant, { authorization: plainBasic(other.id, other.secret) })), 401, 'invalid_client');
    });

    it('token: GET, HEAD, PUT or FOO -> 405 with Allow: POST, still no-store', async () => {
      for (const method of ['GET', 'HEAD', 'PUT', 'FOO']) {
        const res = await send(h.app, token(env), { method });
        expect([res.status, res.headers.get('allow'), res.headers.get('cache-control')]).toEqual([405, 'POST', 'no-store']);
      }
    });

    it('token: body over 64 KB -> 413 with the {error, message} body', async () => {
      const res = await send(h.app, token(env), formPost(`${grant}&pad=${'x'.repeat(BODY_LIMIT_BYTES)}`));
      expect([res.status, res.body]).toEqual([413, { error: 'payload_too_large', message: expect.any(String) }]);
      expect(res.headers.get('cache-control')).toBe('no-store');
    });

    it('token: a request body that fails while reading -> 500 internal_error', async () => {
      const body = new ReadableStream({ pull: (controller) => controller.error(new Error('reset')) });
      const res = await send(h.app, token(env), { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body, duplex: 'half' } as RequestInit);
      expect([res.status, res.body]).toEqual([500, { error: 'internal_error', message: expect.any(String) }]);
    });
  });
}

describe('token: clients file', () => {
  it('token: a client added to or removed from the clients file counts at once, without a restart', async () => {
    const own = await harness();
    try {
      const { id, secret, record } = await clientRecord('added later');
      const before = await send(own.app, API_PATHS.token, formPost(grant, { authorization: plainBasic(id, secret) }));
      expect(before.status).toBe(401);
      const path = clientsPath(own.dir);
      const existing = await readClients(path);
      await writeClients(path, [...existing, record]);
      expect((await send(own.app, API_PATHS.token, formPost(grant, { authorization: plainBasic(id, secret) }))).status).toBe(200);
      await writeClients(path, existing);
      expect((await send(own.app, API_PATHS.token, formPost(grant, { authorization: plainBasic(id, secret) }))).status).toBe(401);
    } finally {
      await own.close();
    }
  });

  it('token: a corrupt clients file -> 500 internal_error (never a token), detail in the log', async () => {
    const own = await harness();
    try {
      await writeFile(clientsPath(own.dir), '{"format":"waitlist-clients","version":1,"clients":[{');
      const res = await send(own.app, API_PATHS.token, formPost(grant, { authorization: plainBasic(own.client.id, own.client.secret) }));
      expect([res.status, res.body.error]).toEqual([500, 'internal_error']);
      expect(own.logger.lines.some((line) => line.includes('clients file'))).toBe(true);
    } finally {
      await own.close();
    }
  });

  it('token: a broken sandbox key -> 500 internal_error, not a token', async () => {
    const app = createApp({ ...h, keys: { ...h.keys, sandbox: new Uint8Array(0) } });
    const res = await send(app, token('sandbox'), formPost(grant, { authorization: plainBasic(SANDBOX_CLIENT_ID, SANDBOX_CLIENT_SECRET) }));
    expect([res.status, res.body.error]).toEqual([500, 'internal_error']);
  });
});
