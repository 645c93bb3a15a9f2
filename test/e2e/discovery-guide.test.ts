/**
 * The API guide's "With an OAuth library" section, run as written: its oauth4webapi code block is
 * taken from the served Markdown twin (English and German) and executed against the stack with
 * oauth4webapi's strict checks (only plain-http requests are allowed, as the test stack is http).
 * The guide's openid-client code block is run by discovery-openid-client.test.ts.
 * Also pinned: what goes wrong without the guide's advice, so the advice stays necessary and true.
 */
import * as oauth from 'oauth4webapi';
import { describe, expect, inject, it } from 'vitest';
import { PAGE_PATHS, SANDBOX_CLIENT_ID, STATS_SCOPE, environmentUrls, twinPath } from '../../api/contract/index.ts';
import '../support/stack.ts';

const { baseUrl } = inject('stack');
const sandbox = environmentUrls(baseUrl, 'sandbox');
const insecure = { [oauth.allowInsecureRequests]: true } as const;

/** oauth4webapi with plain http allowed and nothing else changed. */
const oauthForHttp = {
  ...oauth,
  discoveryRequest: (issuer: URL, options?: oauth.DiscoveryRequestOptions) => oauth.discoveryRequest(issuer, { ...options, ...insecure }),
  resourceDiscoveryRequest: (resource: URL, options?: oauth.DiscoveryRequestOptions) => oauth.resourceDiscoveryRequest(resource, { ...options, ...insecure }),
  clientCredentialsGrantRequest: (as: oauth.AuthorizationServer, client: oauth.Client, auth: oauth.ClientAuth, params: Record<string, string>, options?: oauth.TokenEndpointRequestOptions) =>
    oauth.clientCredentialsGrantRequest(as, client, auth, params, { ...options, ...insecure }),
};

async function guideSnippet(lang: 'en' | 'de'): Promise<string> {
  const twin = await (await fetch(`${baseUrl}${twinPath(PAGE_PATHS.guide[lang])}`)).text();
  const block = /```js\n(import \* as oauth from 'oauth4webapi';[\s\S]*?)```/.exec(twin)?.[1];
  if (!block) throw new Error(`the ${lang} guide has no oauth4webapi code block`);
  return block;
}

const AsyncFunction = (async () => {}).constructor as new (...args: string[]) => (...args: unknown[]) => Promise<unknown>;

describe.each(['en', 'de'] as const)('the API guide (%s) with oauth4webapi', (lang) => {
  it('guide: its oauth4webapi code runs as written: RFC 8414 discovery, RFC 9728 resource metadata, a token for the stats scope', async () => {
    const code = (await guideSnippet(lang)).replace(/^import .*$/m, '');
    const run = new AsyncFunction('oauth', `${code}\nreturn { as, rs, token };`);
    const { as, rs, token } = (await run(oauthForHttp)) as { as: oauth.AuthorizationServer; rs: oauth.ResourceServer; token: oauth.TokenEndpointResponse };
    expect(as.issuer).toBe(sandbox.issuer);
    expect(as.token_endpoint).toBe(sandbox.token);
    expect(rs.resource).toBe(sandbox.resource);
    expect(rs.authorization_servers).toEqual([sandbox.issuer]);
    expect(token.scope).toBe(STATS_SCOPE);
    const stats = await oauth.protectedResourceRequest(token.access_token, 'GET', new URL(sandbox.stats), undefined, undefined, insecure);
    expect(stats.status).toBe(200);
  });
});

describe('why the guide says what it says', () => {
  it('guide: without algorithm oauth2, discovery asks for OpenID Connect metadata, which does not exist (404)', async () => {
    const issuer = new URL(sandbox.issuer);
    const response = await oauth.discoveryRequest(issuer, insecure);
    expect(new URL(response.url).pathname).toBe('/sandbox/.well-known/openid-configuration');
    expect(response.status).toBe(404);
    await expect(oauth.processDiscoveryResponse(issuer, response)).rejects.toThrow();
  });

  it('guide: the strict RFC 9728 check passes with the resource identifier and fails with the statistics URL', async () => {
    const statsUrl = new URL(sandbox.stats);
    await expect(oauth.processResourceDiscoveryResponse(statsUrl, await oauth.resourceDiscoveryRequest(statsUrl, insecure))).rejects.toThrow();
    const resource = new URL(sandbox.resource);
    await expect(oauth.processResourceDiscoveryResponse(resource, await oauth.resourceDiscoveryRequest(resource, insecure))).resolves.toMatchObject({ resource: sandbox.resource });
  });

  it("guide: from the 401 challenge, resource_metadata leads to a resource that is a prefix of the called URL (same origin, path below)", async () => {
    const challenge = (await fetch(sandbox.stats)).headers.get('www-authenticate') ?? '';
    const metadataUrl = /resource_metadata="([^"]+)"/.exec(challenge)?.[1];
    expect(metadataUrl).toBe(sandbox.protectedResourceMetadata);
    const { resource } = (await (await fetch(metadataUrl!)).json()) as { resource: string };
    const called = new URL(sandbox.stats);
    expect(new URL(resource).origin).toBe(called.origin);
    expect(called.pathname.startsWith(`${new URL(resource).pathname}/`)).toBe(true);
  });

  it('guide: RFC 8414 metadata with an empty response_types_supported passes oauth4webapi, and the guide gives the reason', async () => {
    const issuer = new URL(sandbox.issuer);
    const as = await oauth.processDiscoveryResponse(issuer, await oauth.discoveryRequest(issuer, { algorithm: 'oauth2', ...insecure }));
    expect(as.response_types_supported).toEqual([]);
    expect(as).not.toHaveProperty('authorization_endpoint');
    const guide = await (await fetch(`${baseUrl}${twinPath(PAGE_PATHS.guide.en)}`)).text();
    expect(guide).toContain('`response_types_supported` is an empty list');
    expect(guide).toContain(`client_id: '${SANDBOX_CLIENT_ID}'`);
  });
});
