/**
 * panva's oauth4webapi as the token client against a real listening server, with both
 * client_secret_basic and client_secret_post, in production and in the sandbox. Its requests go
 * through documentCheckedFetch, so every token answer is held to the OpenAPI document like
 * those of send().
 */
import { request as httpRequest } from 'node:http';
import * as oauth from 'oauth4webapi';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_PATHS, ENVIRONMENTS, SANDBOX_CLIENT_ID, SANDBOX_CLIENT_SECRET, STATS_SCOPE, TOKEN_TTL_SECONDS, environmentUrls } from '../../api/contract/index.ts';
import { hashSecret, type ClientRecord } from '../../api/sidecar/domain/clients.ts';
import { clientsPath, readClients, writeClients } from '../../api/sidecar/store/json/clients-file.ts';
import { documentCheckedFetch } from '../support/openapi.ts';
import { send } from '../support/request.ts';
import { BASE_URL, harness, type Harness } from './support/harness.ts';
import { envPath } from './support/requests.ts';
import { serveApp, type Served } from './support/server.ts';

// Every character oauth4webapi escapes beyond encodeURIComponent, in both halves (standards.md 1.2).
const TRICKY = { id: 'ops-team_1.x~', secret: 'Ab-c_d.e~f-0123456789abcdefghijklmnopqrstuv' };

let h: Harness;
let served: Served;
beforeAll(async () => {
  h = await harness();
  const path = clientsPath(h.dir);
  const record: ClientRecord = { id: TRICKY.id, name: 'tricky', createdAt: new Date().toISOString(), scopes: [STATS_SCOPE], secretHash: await hashSecret(TRICKY.secret) };
  await writeClients(path, [...(await readClients(path)), record]);
  served = await serveApp(h.app);
});
afterAll(async () => {
  await served.close();
  await h.close();
});

// Local tests run over http; oauth4webapi requires opting in.
const options = { [oauth.allowInsecureRequests]: true, [oauth.customFetch]: documentCheckedFetch };

const methods = [
  ['client_secret_basic', oauth.ClientSecretBasic],
  ['client_secret_post', oauth.ClientSecretPost],
] as const;

for (const env of ENVIRONMENTS) {
  describe(`${env}: oauth4webapi`, () => {
    const as = () => ({ issuer: environmentUrls(BASE_URL, env).issuer, token_endpoint: `${served.url}${envPath(env, API_PATHS.token)}` });
    const accounts = env === 'production' ? [TRICKY, () => h.client] : [{ id: SANDBOX_CLIENT_ID, secret: SANDBOX_CLIENT_SECRET }];

    for (const [name, auth] of methods) {
      it(`token: oauth4webapi ${name} gets a token that opens the statistics`, async () => {
        for (const account of accounts) {
          const { id, secret } = typeof account === 'function' ? account() : account;
          const client: oauth.Client = { client_id: id };
          const response = await oauth.clientCredentialsGrantRequest(as(), client, auth(secret), new URLSearchParams({ scope: STATS_SCOPE }), options);
          const result = await oauth.processClientCredentialsResponse(as(), client, response);
          expect(result.token_type).toBe('bearer');
          expect(result.expires_in).toBe(TOKEN_TTL_SECONDS);
          expect(result.scope).toBe(STATS_SCOPE);
          const stats = await send(served.url, envPath(env, API_PATHS.stats), { headers: { authorization: `Bearer ${result.access_token}` } });
          expect(stats.status).toBe(200);
        }
      });

      it(`token: oauth4webapi ${name} with a wrong secret sees a 401 invalid_client with a Basic challenge`, async () => {
        const { id } = accounts[0] as { id: string };
        const client: oauth.Client = { client_id: id };
        const response = await oauth.clientCredentialsGrantRequest(as(), client, auth('wrong-secret'), new URLSearchParams(), options);
        const error = await oauth.processClientCredentialsResponse(as(), client, response).catch((e: unknown) => e);
        expect(error).toBeInstanceOf(oauth.WWWAuthenticateChallengeError);
        const challenge = error as oauth.WWWAuthenticateChallengeError;
        expect(challenge.status).toBe(401);
        expect(challenge.cause[0].scheme).toBe('basic');
        expect(await challenge.response.json()).toMatchObject({ error: 'invalid_client' });
      });
    }
  });
}

describe('real server: methods Request cannot send', () => {
  it('every route: TRACE on a known path -> 405 with Allow and the API headers, never 500', async () => {
    for (const path of [API_PATHS.status, API_PATHS.token, API_PATHS.waitlist, envPath('sandbox', API_PATHS.stats)]) {
      const { status, headers } = await new Promise<{ status: number; headers: Record<string, unknown> }>((done, fail) => {
        const req = httpRequest(`${served.url}${path}`, { method: 'TRACE' }, (res) => {
          res.resume();
          res.on('end', () => done({ status: res.statusCode ?? 0, headers: res.headers }));
        });
        req.on('error', fail);
        req.end();
      });
      expect([path, status]).toEqual([path, 405]);
      expect(headers.allow).toBeTypeOf('string');
      expect(headers['x-api-version']).toBe('1');
      expect(headers['ratelimit-policy']).toMatch(/^\d+;w=\d+$/);
    }
  });
});
