/**
 * The API guide's "With an OAuth library" section for openid-client 6, run as written: its
 * openid-client code block is taken from the served Markdown twin (English and German) and executed
 * against the stack with openid-client's strict checks. The one change is the one the guide itself
 * prescribes for a plain-http test server: `execute: [client.allowInsecureRequests]` in the options
 * of `discovery`. Also pinned: what goes wrong without the guide's advice, so the advice stays necessary and true.
 */
import * as client from 'openid-client';
import { describe, expect, inject, it } from 'vitest';
import { PAGE_PATHS, SANDBOX_CLIENT_ID, SANDBOX_CLIENT_SECRET, STATS_SCOPE, environmentUrls, twinPath } from '../../api/contract/index.ts';
import { WaitlistStats } from '../../api/contract/schemas.ts';
import '../support/stack.ts';

const { baseUrl } = inject('stack');
const sandbox = environmentUrls(baseUrl, 'sandbox');
const ALLOW_HTTP = 'execute: [client.allowInsecureRequests]';

/** openid-client with the guide's plain-http option added to `discovery`, nothing else changed. */
const clientForHttp = {
  ...client,
  discovery: (server: URL, clientId: string, metadata?: Partial<client.ClientMetadata> | string, auth?: client.ClientAuth, options?: client.DiscoveryRequestOptions) =>
    client.discovery(server, clientId, metadata, auth, { ...options, execute: [...(options?.execute ?? []), client.allowInsecureRequests] }),
};

async function guideTwin(lang: 'en' | 'de'): Promise<string> {
  return (await fetch(`${baseUrl}${twinPath(PAGE_PATHS.guide[lang])}`)).text();
}

function openidClientBlock(twin: string, lang: string): string {
  const block = /```js\n(import \* as client from 'openid-client';[\s\S]*?)```/.exec(twin)?.[1];
  if (!block) throw new Error(`the ${lang} guide has no openid-client code block`);
  return block;
}

const AsyncFunction = (async () => {}).constructor as new (...args: string[]) => (...args: unknown[]) => Promise<unknown>;

/** Records every request openid-client makes (URL and status), passing it on unchanged. */
function recordingFetch() {
  const seen: { url: string; status: number }[] = [];
  const fetchAndRecord: client.CustomFetch = async (url, options) => {
    const response = await fetch(url, options as RequestInit);
    seen.push({ url, status: response.status });
    return response;
  };
  return { seen, fetchAndRecord };
}

describe.each(['en', 'de'] as const)('the API guide (%s) with openid-client 6', (lang) => {
  it('guide: its openid-client code runs as written: RFC 8414 discovery, a token for the stats scope, sandbox statistics', async () => {
    const twin = await guideTwin(lang);
    expect(twin).toContain(ALLOW_HTTP);
    const code = openidClientBlock(twin, lang).replace(/^import .*$/m, '');
    const run = new AsyncFunction('client', `${code}\nreturn { config, token, stats };`);
    const { config, token, stats } = (await run(clientForHttp)) as { config: client.Configuration; token: client.TokenEndpointResponse; stats: unknown };
    expect(config.serverMetadata().issuer).toBe(sandbox.issuer);
    expect(config.serverMetadata().token_endpoint).toBe(sandbox.token);
    expect(config.clientMetadata().client_id).toBe(SANDBOX_CLIENT_ID);
    expect(token.token_type.toLowerCase()).toBe('bearer');
    expect(token.scope).toBe(STATS_SCOPE);
    expect(WaitlistStats.safeParse(stats).success).toBe(true);
  });
});

describe('why the guide says what it says (openid-client)', () => {
  const issuer = new URL(sandbox.issuer);

  it('guide: without algorithm oauth2, openid-client asks for OpenID Connect metadata, which answers 404, and discovery fails', async () => {
    const { seen, fetchAndRecord } = recordingFetch();
    await expect(
      client.discovery(issuer, SANDBOX_CLIENT_ID, SANDBOX_CLIENT_SECRET, undefined, { execute: [client.allowInsecureRequests], [client.customFetch]: fetchAndRecord }),
    ).rejects.toThrow();
    expect(seen).toEqual([{ url: `${sandbox.issuer}/.well-known/openid-configuration`, status: 404 }]);
  });

  it('guide: with algorithm oauth2, openid-client reads the RFC 8414 document of the sandbox issuer', async () => {
    const { seen, fetchAndRecord } = recordingFetch();
    const config = await client.discovery(issuer, SANDBOX_CLIENT_ID, SANDBOX_CLIENT_SECRET, undefined, {
      algorithm: 'oauth2',
      execute: [client.allowInsecureRequests],
      [client.customFetch]: fetchAndRecord,
    });
    expect(seen).toEqual([{ url: sandbox.authorizationServerMetadata, status: 200 }]);
    expect(config.serverMetadata().response_types_supported).toEqual([]);
  });

  it('guide: openid-client keeps its HTTPS-only check unless told allowInsecureRequests, so the guide limits that to http test servers', async () => {
    await expect(client.discovery(issuer, SANDBOX_CLIENT_ID, SANDBOX_CLIENT_SECRET, undefined, { algorithm: 'oauth2' })).rejects.toThrow(/https/i);
  });
});
