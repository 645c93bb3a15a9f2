/**
 * End to end with panva's oauth4webapi against the real front + sidecar: RFC 8414 discovery
 * (`algorithm: 'oauth2'`, path insertion) for both issuers, the client-credentials grant with
 * client_secret_basic and with client_secret_post, RFC 9728 resource discovery, then the
 * statistics call with the token. Every API answer is also held to the OpenAPI document.
 */
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import * as oauth from 'oauth4webapi';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import {
  ENVIRONMENTS,
  SANDBOX_CLIENT_ID,
  SANDBOX_CLIENT_SECRET,
  STATS_SCOPE,
  environmentUrls,
  type Environment,
} from '../../api/contract/index.ts';
import { assertFetchMatchesDocument, documentCheckedFetch } from '../support/openapi.ts';
import { stackEnv } from '../support/stack.ts';

const stack = inject('stack');
const root = fileURLToPath(new URL('../..', import.meta.url));
// Local tests run over http://127.0.0.1; oauth4webapi requires opting in.
const options = { [oauth.allowInsecureRequests]: true, [oauth.customFetch]: documentCheckedFetch };

/** Creates a production client with the operator command, as an operator would. */
async function createClient(name: string): Promise<{ id: string; secret: string }> {
  const { stdout } = await promisify(execFile)(process.execPath, ['scripts/clients.ts', 'create', name], {
    cwd: root,
    env: stackEnv({ DATA_DIR: stack.dataDir }),
  });
  const id = /^client_id: (\S+)$/m.exec(stdout)?.[1];
  const secret = /^client_secret: (\S+)$/m.exec(stdout)?.[1];
  if (!id || !secret) throw new Error(`unexpected output of scripts/clients.ts: ${stdout}`);
  return { id, secret };
}

const credentials: Record<Environment, { id: string; secret: string }> = {
  production: { id: '', secret: '' },
  sandbox: { id: SANDBOX_CLIENT_ID, secret: SANDBOX_CLIENT_SECRET },
};

beforeAll(async () => {
  credentials.production = await createClient('e2e oauth4webapi');
});

async function discover(env: Environment): Promise<oauth.AuthorizationServer> {
  const issuer = new URL(environmentUrls(stack.baseUrl, env).issuer);
  const response = await oauth.discoveryRequest(issuer, { algorithm: 'oauth2', ...options });
  return oauth.processDiscoveryResponse(issuer, response);
}

async function grant(env: Environment, auth: (secret: string) => oauth.ClientAuth): Promise<oauth.TokenEndpointResponse> {
  const as = await discover(env);
  const { id, secret } = credentials[env];
  const client: oauth.Client = { client_id: id };
  const response = await oauth.clientCredentialsGrantRequest(as, client, auth(secret), { scope: STATS_SCOPE }, options);
  return oauth.processClientCredentialsResponse(as, client, response);
}

describe.each(ENVIRONMENTS)('oauth4webapi, %s', (env) => {
  const urls = environmentUrls(stack.baseUrl, env);

  it('RFC 8414 discovery (algorithm oauth2) finds the issuer, its token endpoint and grant', async () => {
    const as = await discover(env);
    expect(as.issuer).toBe(urls.issuer);
    expect(as.token_endpoint).toBe(urls.token);
    expect(as.grant_types_supported).toEqual(['client_credentials']);
    expect(as.token_endpoint_auth_methods_supported).toEqual(['client_secret_basic', 'client_secret_post']);
  });

  it.each([
    ['client_secret_basic', oauth.ClientSecretBasic],
    ['client_secret_post', oauth.ClientSecretPost],
  ] as const)('client-credentials grant with %s -> a Bearer token for the stats scope', async (_, auth) => {
    const token = await grant(env, auth);
    expect(token.token_type.toLowerCase()).toBe('bearer');
    expect(token.scope).toBe(STATS_SCOPE);
    expect(token.expires_in).toBeGreaterThan(0);
  });

  it('RFC 9728 resource discovery: the resource is the /api/v1 tree and names this issuer', async () => {
    const resource = new URL(urls.resource);
    const response = await oauth.resourceDiscoveryRequest(resource, options);
    const metadata = await oauth.processResourceDiscoveryResponse(resource, response);
    expect(metadata.resource).toBe(urls.resource);
    expect(metadata.authorization_servers).toEqual([urls.issuer]);
    expect(metadata.scopes_supported).toContain(STATS_SCOPE);
    expect(metadata.bearer_methods_supported).toEqual(['header']);
  });

  it('the statistics call with the token -> 200, valid against the document', async () => {
    const token = await grant(env, oauth.ClientSecretBasic);
    const response = await oauth.protectedResourceRequest(token.access_token, 'GET', new URL(urls.stats), undefined, undefined, {
      [oauth.allowInsecureRequests]: true,
    });
    expect(response.status).toBe(200);
    await assertFetchMatchesDocument('GET', urls.stats, response);
    expect(await response.json()).toHaveProperty('total');
  });

  it('without a token the stats endpoint challenges with the resource metadata URL (RFC 9728 §5.1)', async () => {
    const response = await fetch(urls.stats);
    await assertFetchMatchesDocument('GET', urls.stats, response);
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toContain(`resource_metadata="${urls.protectedResourceMetadata}"`);
  });
});

it('a production token is refused by the sandbox and the other way round', async () => {
  for (const [env, other] of [['production', 'sandbox'], ['sandbox', 'production']] as const) {
    const token = await grant(other, oauth.ClientSecretBasic);
    const stats = environmentUrls(stack.baseUrl, env).stats;
    const response = await fetch(stats, { headers: { authorization: `Bearer ${token.access_token}` } });
    await assertFetchMatchesDocument('GET', stats, response);
    expect(response.status).toBe(401);
  }
});
