/**
 * The MCP endpoint's HTTP rules in process, where tokens can be forged with the environment's key:
 * a token of this resource without the statistics scope gets 403 insufficient_scope; a token of
 * another audience 401; the token endpoint's RFC 8707 `resource`; no address in any log line;
 * and the sign-up's merge and consent evidence on both stores.
 */
import { randomUUID } from 'node:crypto';
import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENVIRONMENTS, STATS_SCOPE, environmentUrls, type Environment } from '../../api/contract/index.ts';
import { describeEachBackend } from './support/backends.ts';
import { BASE_URL, harness, type Harness } from './support/harness.ts';
import { envPath, formPost } from './support/requests.ts';

let h: Harness;
beforeAll(async () => {
  h = await harness();
});
afterAll(() => h.close());

function forge(env: Environment, audience: string, scope: string): Promise<string> {
  const iat = Math.floor(h.clock.now() / 1000);
  return new SignJWT({ client_id: 'c', scope })
    .setProtectedHeader({ alg: 'HS256', typ: 'at+jwt' })
    .setIssuer(environmentUrls(BASE_URL, env).issuer)
    .setAudience(audience)
    .setSubject('c')
    .setJti(randomUUID())
    .setIssuedAt(iat)
    .setExpirationTime(iat + 900)
    .sign(h.keys[env]);
}

function call(env: Environment, name: string, args: Record<string, unknown>, bearer?: string): Promise<Response> {
  return Promise.resolve(
    h.app.request(envPath(env, '/api/mcp'), {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        ...(bearer ? { authorization: `Bearer ${bearer}` } : {}),
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args } }),
    }),
  );
}

describe.each(ENVIRONMENTS)('MCP authorization, %s', (env) => {
  const urls = environmentUrls(BASE_URL, env);

  it('waitlist_stats with a token of this resource but without the scope -> 403 insufficient_scope naming the scope and metadata', async () => {
    const response = await call(env, 'waitlist_stats', {}, await forge(env, urls.mcp, ''));
    expect(response.status).toBe(403);
    expect(await response.json()).toMatchObject({ error: 'insufficient_scope' });
    const challenge = response.headers.get('www-authenticate')!;
    expect(challenge).toContain('error="insufficient_scope"');
    expect(challenge).toContain(`scope="${STATS_SCOPE}"`);
    expect(challenge).toContain(`resource_metadata="${urls.mcpResourceMetadata}"`);
  });

  it('waitlist_stats with a token of this resource and the scope -> the statistics', async () => {
    const response = await call(env, 'waitlist_stats', {}, await forge(env, urls.mcp, STATS_SCOPE));
    expect(response.status).toBe(200);
    const body = (await response.json()) as { result: { structuredContent: { total: number } } };
    expect(typeof body.result.structuredContent.total).toBe('number');
  });

  it('any call with a token of the API (another audience) -> 401 invalid_token, even one that needs no token', async () => {
    const response = await call(env, 'status', {}, await forge(env, urls.resource, STATS_SCOPE));
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toContain('error="invalid_token"');
  });

  it('token endpoint: resource = the MCP endpoint -> a token whose audience it is; no resource -> the API, as before', async () => {
    const client = env === 'sandbox' ? { id: 'sandbox', secret: 'sandbox' } : h.client;
    const issue = async (extra: Record<string, string>) => {
      const response = await h.app.request(
        envPath(env, '/api/v1/oauth/token'),
        formPost({ grant_type: 'client_credentials', client_id: client.id, client_secret: client.secret, ...extra }),
      );
      expect(response.status).toBe(200);
      const token = ((await response.json()) as { access_token: string }).access_token;
      return JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()).aud as string;
    };
    expect(await issue({ resource: urls.mcp })).toBe(urls.mcp);
    expect(await issue({ resource: urls.resource })).toBe(urls.resource);
    expect(await issue({})).toBe(urls.resource);
  });

  it('token endpoint: a resource of the other environment -> 400 invalid_target in the OAuth error shape', async () => {
    const other = environmentUrls(BASE_URL, env === 'sandbox' ? 'production' : 'sandbox');
    const client = env === 'sandbox' ? { id: 'sandbox', secret: 'sandbox' } : h.client;
    const response = await h.app.request(
      envPath(env, '/api/v1/oauth/token'),
      formPost({ grant_type: 'client_credentials', client_id: client.id, client_secret: client.secret, resource: other.mcp }),
    );
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ error: 'invalid_target', error_description: expect.any(String) });
  });
});

it('a sign-up through MCP, valid or not, leaves no address in the logs', async () => {
  for (const args of [{ email: 'secret-person@example.com', consent: true }, { email: 'secret-person@example', consent: true }, { email: 'secret-person@example.com', consent: false }]) {
    expect((await call('production', 'join_waitlist', args)).status).toBe(200);
  }
  expect(h.logger.lines.join('\n')).not.toContain('secret-person');
});

describeEachBackend('join_waitlist through MCP', (backend) => {
  let store: Harness;
  beforeAll(async () => {
    store = await harness({}, backend);
  });
  afterAll(() => store.close());

  it('stores the sign-up with the API merge rule and consent evidence of channel mcp; the sandbox stores nothing', async () => {
    const join = (env: Environment, args: Record<string, unknown>) =>
      store.app.request(envPath(env, '/api/mcp'), {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'join_waitlist', arguments: args } }),
      });
    expect((await join('sandbox', { email: 'Only-Sandbox@Example.com', consent: true })).status).toBe(200);
    expect((await join('production', { email: 'Ada@Example.com', consent: true, role: 'developer' })).status).toBe(200);
    expect((await join('production', { email: 'ada@example.com', consent: true, lang: 'de' })).status).toBe(200);
    const records = await store.durableRecords();
    expect(records).toHaveLength(1);
    expect(records[0]).toMatchObject({ email: 'ada@example.com', role: 'developer', lang: 'de', consent: { channel: 'mcp', form: 'api', lang: 'de' } });
  });
});
