/** Status probe, API index, unknown paths and the headers every API answer carries. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_PATHS, API_VERSION, ENVIRONMENTS, ENV_PREFIX, MCP_ROUTE, ROUTES, SERVICE_NAME, environmentUrls } from '../../api/contract/index.ts';
import { createApp } from '../../api/sidecar/app.ts';
import { send } from '../support/request.ts';
import { BASE_URL, ManualClock, harness, servedRoutes, type Harness } from './support/harness.ts';
import { envPath, stableHeaders } from './support/requests.ts';

let h: Harness;
beforeAll(async () => {
  h = await harness();
});
afterAll(() => h.close());

describe('mount table', () => {
  it('routes: the app serves exactly ROUTES and the MCP endpoint x {production, sandbox}, every method of each route', () => {
    const expected = ENVIRONMENTS.flatMap((env) => [...ROUTES, MCP_ROUTE].flatMap((r) => r.methods.map((method) => `${method} ${ENV_PREFIX[env]}${r.path}`)));
    const served = servedRoutes(h.app).map((r) => `${r.method} ${r.path}`);
    expect(served.sort()).toEqual(expected.sort());
  });
});

for (const env of ENVIRONMENTS) {
  describe(`${env} status and index`, () => {
    const urls = environmentUrls(BASE_URL, env);

    it('status: GET -> 200 with exactly the seven fields; HEAD -> same headers, no body', async () => {
      const res = await send(h.app, envPath(env, API_PATHS.status));
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        status: 'ok',
        service: SERVICE_NAME,
        apiVersion: API_VERSION,
        environment: env,
        time: new Date(h.clock.now()).toISOString(),
        docs: urls.guide,
        openapi: urls.openapi,
      });
      expect(res.headers.get('content-type')).toBe('application/json');
      const head = await send(h.app, envPath(env, API_PATHS.status), { method: 'HEAD' });
      expect([head.status, head.text]).toEqual([200, '']);
      expect(stableHeaders(head.headers)).toEqual(stableHeaders(res.headers));
    });

    it('status: POST, PUT, DELETE, OPTIONS or FOO -> 405 with Allow: GET, HEAD', async () => {
      for (const method of ['POST', 'PUT', 'DELETE', 'OPTIONS', 'FOO']) {
        const res = await send(h.app, envPath(env, API_PATHS.status), { method });
        expect([method, res.status, res.headers.get('allow'), res.body.error]).toEqual([method, 405, 'GET, HEAD', 'method_not_allowed']);
      }
    });

    it('status: a clock the server cannot format -> 500 internal_error with the API headers', async () => {
      const broken = createApp({ ...h, clock: new ManualClock(9e15) });
      const res = await send(broken, envPath(env, API_PATHS.status));
      expect([res.status, res.body]).toEqual([500, { error: 'internal_error', message: expect.any(String) }]);
      expect(res.headers.get('x-api-version')).toBe(API_VERSION);
    });

    it('index: GET -> 200 with absolute links of this environment', async () => {
      const res = await send(h.app, envPath(env, API_PATHS.index));
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        service: SERVICE_NAME,
        apiVersion: API_VERSION,
        environment: env,
        links: {
          status: urls.status,
          token: urls.token,
          stats: urls.stats,
          waitlist: urls.waitlist,
          openapi: urls.openapi,
          openapiMarkdown: urls.openapiMarkdown,
          apiCatalog: urls.apiCatalog,
          authorizationServerMetadata: urls.authorizationServerMetadata,
          protectedResourceMetadata: urls.protectedResourceMetadata,
          guide: urls.guide,
        },
      });
      for (const link of Object.values(res.body.links as Record<string, string>)) expect(link.startsWith(BASE_URL)).toBe(true);
      expect((await send(h.app, envPath(env, API_PATHS.index), { method: 'POST' })).status).toBe(405);
    });

    it('unknown paths: prices, login, v2, a trailing slash, a bad escape -> 404 not_found JSON with the API headers', async () => {
      for (const path of ['/api/v1/prices', '/api/v1/login', '/api/v2/status', '/api/v1/status/', '/api', '/api/v1/%ZZ', '/api/v1/waitlist/stats/extra']) {
        for (const method of ['GET', 'POST']) {
          const res = await send(h.app, envPath(env, path), { method });
          expect([path, method, res.status, res.body]).toEqual([path, method, 404, { error: 'not_found', message: expect.any(String) }]);
          expect(res.headers.get('x-api-version')).toBe(API_VERSION);
          expect(res.headers.get('ratelimit-limit')).toMatch(/^\d+$/);
        }
      }
    });
  });
}
