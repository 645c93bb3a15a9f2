/**
 * The document's own request examples, sent to the in-process sidecar in both environments, get
 * the documented success answer; `send()` holds every answer (errors included) to the document.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENVIRONMENTS, ENV_PREFIX, SANDBOX_CLIENT_ID, SANDBOX_CLIENT_SECRET, type Environment } from '../../api/contract/index.ts';
import { buildOpenApiDocument } from '../../api/docs/openapi.ts';
import type { OperationObject } from '../../api/docs/operations.ts';
import { BASE_URL, harness, type Harness } from '../api/support/harness.ts';
import { send } from '../support/request.ts';

const doc = buildOpenApiDocument(BASE_URL);
const operations = Object.entries(doc.paths).flatMap(([path, item]) =>
  Object.entries(item).map(([method, op]) => ({ path, method: method.toUpperCase(), op: op as OperationObject })),
);
const FORM = 'application/x-www-form-urlencoded';

describe('live: the document against the sidecar', () => {
  let h: Harness;
  const basic = (id: string, secret: string) => `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`;
  const credentials = (env: Environment) => (env === 'sandbox' ? { id: SANDBOX_CLIENT_ID, secret: SANDBOX_CLIENT_SECRET } : h.client);

  beforeAll(async () => {
    h = await harness();
  });
  afterAll(async () => {
    await h.close();
  });

  async function token(env: Environment): Promise<string> {
    const { id, secret } = credentials(env);
    const res = await send(h.app, `${ENV_PREFIX[env]}/api/v1/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': FORM, authorization: basic(id, secret) },
      body: 'grant_type=client_credentials',
    });
    return res.body.access_token;
  }

  async function call(env: Environment, path: string, method: string, op: OperationObject, type?: string) {
    const headers: Record<string, string> = {};
    const schemes = op.security.flatMap((r) => Object.keys(r)).map((name) => doc.components.securitySchemes[name]!.type);
    if (schemes.includes('oauth2')) headers.authorization = `Bearer ${await token(env)}`;
    if (schemes.includes('http')) headers.authorization = basic(credentials(env).id, credentials(env).secret);
    let body: string | undefined;
    const media = type ? op.requestBody?.content[type] : undefined;
    if (type && media) {
      const value = Object.values(media.examples!)[0]!.value as Record<string, unknown>;
      headers['content-type'] = type;
      body = type === FORM ? new URLSearchParams(Object.entries(value).map(([k, v]) => [k, String(v)])).toString() : JSON.stringify(value);
    }
    return send(h.app, `${ENV_PREFIX[env]}${path}`, { method, headers, body });
  }

  for (const env of ENVIRONMENTS) {
    for (const { path, method, op } of operations) {
      const types = op.requestBody ? Object.keys(op.requestBody.content) : [undefined];
      for (const type of types) {
        it(`${env}: ${method} ${path}${type ? ` (${type})` : ''} with the documented example answers as documented`, async () => {
          const res = await call(env, path, method, op, type);
          // A form-encoded sign-up is answered 303 (part 4); everything else 200.
          const expected = type === FORM && op.responses['303'] ? 303 : 200;
          expect(res.status).toBe(expected);
        });
      }
      if (method === 'GET') {
        it(`${env}: HEAD ${path} answers like GET without a body`, async () => {
          const res = await call(env, path, 'HEAD', op);
          expect(res.status).toBe(200);
          expect(res.text).toBe('');
        });
      }
      it(`${env}: DELETE ${path} -> 405 method_not_allowed as documented`, async () => {
        const res = await send(h.app, `${ENV_PREFIX[env]}${path}`, { method: 'DELETE' });
        expect(res.status).toBe(405);
      });
    }
    it(`${env}: an unknown API path -> 404 with an Error body`, async () => {
      const res = await send(h.app, `${ENV_PREFIX[env]}/api/v1/prices`);
      expect(res.status).toBe(404);
    });
  }
});
