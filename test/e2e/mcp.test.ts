/**
 * The MCP endpoint end to end: the SDK's own client over Streamable HTTP against the real front +
 * sidecar, in both environments and both protocol revisions, and the HTTP rules around it (the
 * Bearer challenges, token audiences, Origin, 405, 413, the rate limit shared with the API).
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import {
  BODY_LIMIT_BYTES,
  BUILDING,
  ENVIRONMENTS,
  MCP_PROTOCOL_VERSIONS,
  ROLES,
  SANDBOX_CLIENT_ID,
  SANDBOX_CLIENT_SECRET,
  STATS_SCOPE,
  environmentUrls,
  type Environment,
} from '../../api/contract/index.ts';
import { ROOT, stackEnv, startStacks, type RunningStack } from '../support/stack.ts';

const shared = inject('stack');
type Version = (typeof MCP_PROTOCOL_VERSIONS)[number];

/** Creates a production client with the operator command, as an operator would. */
async function createClient(dataDir: string): Promise<{ id: string; secret: string }> {
  const { stdout } = await promisify(execFile)(process.execPath, ['scripts/clients.ts', 'create', 'e2e mcp'], { cwd: ROOT, env: stackEnv({ DATA_DIR: dataDir }) });
  return { id: /^client_id: (\S+)$/m.exec(stdout)![1]!, secret: /^client_secret: (\S+)$/m.exec(stdout)![1]! };
}

/** POST to the token endpoint of `env` at `url` (a stack's own address), with RFC 8707 `resource` when given. */
async function requestToken(url: string, env: Environment, client: { id: string; secret: string }, resource?: string): Promise<Response> {
  const form = new URLSearchParams({ grant_type: 'client_credentials', scope: STATS_SCOPE, ...(resource ? { resource } : {}) });
  const basic = Buffer.from(`${client.id}:${client.secret}`).toString('base64');
  return fetch(`${url}${env === 'sandbox' ? '/sandbox' : ''}/api/v1/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: `Basic ${basic}` },
    body: form,
  });
}

async function token(url: string, env: Environment, client: { id: string; secret: string }, resource?: string): Promise<string> {
  const response = await requestToken(url, env, client, resource);
  expect(response.status).toBe(200);
  return ((await response.json()) as { access_token: string }).access_token;
}

/** The endpoint's URL on a stack listening at `url` (the resource identifiers use the site's base URL). */
function endpoint(url: string, env: Environment): URL {
  return new URL(`${env === 'sandbox' ? '/sandbox' : ''}/api/mcp`, url);
}

async function connect(url: string, env: Environment, version: Version, bearer?: string): Promise<Client> {
  const mode = version === '2026-07-28' ? { pin: version } : ('legacy' as const);
  const client = new Client({ name: 'e2e', version: '1.0.0' }, { versionNegotiation: { mode } });
  const headers = bearer ? { authorization: `Bearer ${bearer}` } : undefined;
  await client.connect(new StreamableHTTPClientTransport(endpoint(url, env), { requestInit: { headers } }));
  return client;
}

/** A raw JSON-RPC POST, for the HTTP answers the SDK client turns into exceptions. */
function rawCall(url: string, env: Environment, method: string, params: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(endpoint(url, env), {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
}

const statsCall = { name: 'waitlist_stats', arguments: {} };
const sandboxClient = { id: SANDBOX_CLIENT_ID, secret: SANDBOX_CLIENT_SECRET };

describe.each(ENVIRONMENTS)('MCP, %s', (env) => {
  const urls = environmentUrls(shared.baseUrl, env);

  describe.each(MCP_PROTOCOL_VERSIONS)('revision %s', (version) => {
    let client: Client;
    beforeAll(async () => {
      client = await connect(shared.baseUrl, env, version);
    });
    afterAll(() => client.close());

    it('the SDK client connects with this revision', () => {
      expect(client.getNegotiatedProtocolVersion()).toBe(version);
      expect(client.getServerVersion()?.name).toBe(env === 'sandbox' ? 'waitlist-sandbox' : 'waitlist');
    });

    it('tools: status, join_waitlist, waitlist_stats, each with a title, a description, annotations and a schema without $ref', async () => {
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name)).toEqual(['status', 'join_waitlist', 'waitlist_stats']);
      for (const tool of tools) {
        expect(tool.title).toBeTruthy();
        expect(tool.description!.length).toBeGreaterThan(40);
        expect(tool.annotations).toBeDefined();
        expect(JSON.stringify(tool.inputSchema)).not.toMatch(/"\$ref"|"\$id"|"id"/);
      }
      const join = tools.find((tool) => tool.name === 'join_waitlist')!;
      const properties = join.inputSchema.properties as Record<string, { enum?: string[]; const?: unknown }>;
      expect(properties.role!.enum).toEqual([...ROLES]);
      expect(properties.building!.enum).toEqual([...BUILDING]);
      expect(properties.consent!.const).toBe(true);
      expect(properties).not.toHaveProperty('website');
      expect(join.description).toMatch(/agreed/);
    });

    it('status: the status probe body of this environment', async () => {
      const result = await client.callTool({ name: 'status', arguments: {} });
      expect(result.structuredContent).toMatchObject({ status: 'ok', environment: env, docs: urls.guide, openapi: urls.openapi });
    });

    it('join_waitlist: new and repeated addresses -> {accepted: true}; bad arguments -> a tool error naming the field', async () => {
      const email = `mcp-${env}-${version}@example.com`;
      for (const args of [{ email, consent: true }, { email, consent: true, role: ROLES[0] }]) {
        expect((await client.callTool({ name: 'join_waitlist', arguments: args })).structuredContent).toEqual({ accepted: true });
      }
      const bad: [Record<string, unknown>, RegExp][] = [
        [{ email: 'not-an-address', consent: true }, /email/],
        [{ email, consent: false }, /consent/],
        [{ email, consent: true, role: 'astronaut' }, /role/],
        [{ email, consent: true, website: 'spam' }, /website|arguments/],
      ];
      for (const [args, field] of bad) {
        const result = await client.callTool({ name: 'join_waitlist', arguments: args });
        expect(result.isError, JSON.stringify(args)).toBe(true);
        expect(JSON.stringify(result.content)).toMatch(field);
      }
    });

    it('resources: the Markdown twins in both languages, the OpenAPI document and llms.txt, as the site serves them', async () => {
      const { resources } = await client.listResources();
      const uris = resources.map((resource) => resource.uri);
      expect(uris).toEqual(expect.arrayContaining([`${shared.baseUrl}/index.md`, `${shared.baseUrl}/de.md`, urls.openapi, `${shared.baseUrl}/llms.txt`]));
      for (const uri of [`${shared.baseUrl}/de.md`, `${shared.baseUrl}/llms.txt`]) {
        const { contents } = await client.readResource({ uri });
        expect((contents[0] as { text: string }).text).toBe(await (await fetch(uri)).text());
      }
    });

    it('waitlist_stats without a token: the call is refused (HTTP 401)', async () => {
      await expect(client.callTool(statsCall)).rejects.toThrow(/401|unauthorized/i);
    });
  });

  it('waitlist_stats without a token -> 401 with a Bearer challenge naming the MCP resource metadata', async () => {
    const response = await rawCall(shared.baseUrl, env, 'tools/call', statsCall);
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toMatch(new RegExp(`^Bearer .*resource_metadata="${urls.mcpResourceMetadata}"`));
    expect(response.headers.get('x-api-version')).toBe('1');
    expect(response.headers.get('ratelimit-limit')).not.toBeNull();
  });

  it('the MCP resource metadata names the endpoint and this issuer', async () => {
    const metadata = (await (await fetch(urls.mcpResourceMetadata)).json()) as { resource: string; authorization_servers: string[] };
    expect(metadata.resource).toBe(urls.mcp);
    expect(metadata.authorization_servers).toEqual([urls.issuer]);
  });

  it('RFC 8707: a token for the MCP resource works there and is refused by the API; an API token is refused by the endpoint', async () => {
    if (env === 'production') return; // production clients: see the own stack below
    const mcpToken = await token(shared.baseUrl, env, sandboxClient, urls.mcp);
    const client = await connect(shared.baseUrl, env, '2025-11-25', mcpToken);
    expect((await client.callTool(statsCall)).structuredContent).toHaveProperty('total');
    await client.close();
    const api = await fetch(`${shared.baseUrl}/sandbox/api/v1/waitlist/stats`, { headers: { authorization: `Bearer ${mcpToken}` } });
    expect(api.status).toBe(401);
    const apiToken = await token(shared.baseUrl, env, sandboxClient);
    const refused = await rawCall(shared.baseUrl, env, 'tools/call', statsCall, { authorization: `Bearer ${apiToken}` });
    expect(refused.status).toBe(401);
    expect(refused.headers.get('www-authenticate')).toMatch(/error="invalid_token"/);
  });

  it('RFC 8707 §2: a resource this server does not protect -> 400 invalid_target', async () => {
    const response = await requestToken(shared.baseUrl, 'sandbox', sandboxClient, `${shared.baseUrl}/elsewhere`);
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ error: 'invalid_target' });
  });

  it('an Origin other than the site own -> 403; the site own Origin is served', async () => {
    const init = { initialize: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'e2e', version: '1' } } };
    expect((await rawCall(shared.baseUrl, env, 'initialize', init.initialize, { origin: 'https://attacker.example' })).status).toBe(403);
    expect((await rawCall(shared.baseUrl, env, 'initialize', init.initialize, { origin: new URL(shared.baseUrl).origin })).status).toBe(200);
  });

  it.each(['GET', 'DELETE'])('%s -> 405 with Allow: POST', async (method) => {
    const response = await fetch(endpoint(shared.baseUrl, env), { method });
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('POST');
  });

  it('a body over 64 KB -> 413', async () => {
    const response = await rawCall(shared.baseUrl, env, 'ping', { padding: 'x'.repeat(BODY_LIMIT_BYTES) });
    expect(response.status).toBe(413);
  });
});

// The two stacks of their own below (settings other than the run's stack has), started side by side.
let ownStack: RunningStack;
let limitedStack: RunningStack;
beforeAll(async () => {
  [ownStack, limitedStack] = await startStacks([
    { distDir: shared.distDir, baseUrl: shared.baseUrl },
    { distDir: shared.distDir, baseUrl: shared.baseUrl, env: { RATE_LIMIT_STANDARD: '2', RATE_LIMIT_RELAXED: '3' } },
  ]);
}, 120_000);
afterAll(() => Promise.all([ownStack?.stop(), limitedStack?.stop()]));

describe('MCP on a stack of its own', () => {
  let stack: RunningStack;
  let production: { id: string; secret: string };
  beforeAll(async () => {
    stack = ownStack;
    production = await createClient(stack.dataDir);
  });

  async function apiTotal(): Promise<number> {
    const bearer = await token(stack.url, 'production', production);
    const response = await fetch(`${stack.url}/api/v1/waitlist/stats`, { headers: { authorization: `Bearer ${bearer}` } });
    return ((await response.json()) as { total: number }).total;
  }

  it('a sign-up through MCP is counted in the API statistics; one in the sandbox stores nothing', async () => {
    const before = await apiTotal();
    const sandbox = await connect(stack.url, 'sandbox', '2026-07-28');
    await sandbox.callTool({ name: 'join_waitlist', arguments: { email: 'sandbox-only@example.com', consent: true } });
    await sandbox.close();
    expect(await apiTotal()).toBe(before);
    const client = await connect(stack.url, 'production', '2026-07-28');
    await client.callTool({ name: 'join_waitlist', arguments: { email: 'through-mcp@example.com', consent: true } });
    await client.close();
    expect(await apiTotal()).toBe(before + 1);
  });

  it('a production token for the MCP resource reads the statistics through MCP; the API refuses it', async () => {
    const urls = environmentUrls(shared.baseUrl, 'production');
    const mcpToken = await token(stack.url, 'production', production, urls.mcp);
    const client = await connect(stack.url, 'production', '2026-07-28', mcpToken);
    expect((await client.callTool(statsCall)).structuredContent).toMatchObject({ total: await apiTotal() });
    await client.close();
    expect((await fetch(`${stack.url}/api/v1/waitlist/stats`, { headers: { authorization: `Bearer ${mcpToken}` } })).status).toBe(401);
  });
});

describe('MCP rate limits', () => {
  let stack: RunningStack;
  beforeAll(() => {
    stack = limitedStack;
  });

  it.each([
    ['production', 2],
    ['sandbox', 3],
  ] as const)('%s: MCP calls count against the API limit of the same client (%i a minute), then 429', async (env, limit) => {
    const index = await fetch(`${stack.url}${env === 'sandbox' ? '/sandbox' : ''}/api/v1`);
    expect(index.status).toBe(200);
    for (let i = 1; i < limit; i++) expect((await rawCall(stack.url, env, 'tools/list', {})).status).toBe(200);
    const limited = await rawCall(stack.url, env, 'tools/list', {});
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).not.toBeNull();
  });
});
