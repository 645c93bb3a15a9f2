/**
 * The MCP server of an environment, built per request. Its tools: the status probe, the sign-up and
 * the statistics, each calling what the API's route calls, so an agent gets the same validation,
 * merge and answers as a JSON client (the sign-up's schema is the contract's own, which carries no
 * id: MCP tool schemas carry no `$ref`). Its resources: every page's Markdown twin (both
 * languages), the OpenAPI document and llms.txt, read from the site build (DIST_DIR), never from
 * the network, their URIs the public URLs the front serves them at.
 */
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { McpServer, type CallToolResult } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { API_DESCRIPTION_VERSION, DISCOVERY_PATHS, EMAIL_MAX_LENGTH, statusBody, WaitlistSignup, type Accepted } from '../../contract/index.ts';
import { BRAND } from '../../contract/brand.ts';
import { checkSignup } from '../domain/signup.ts';
import { SANDBOX_STATS } from '../domain/stats.ts';
import type { RouteContext } from '../deps.ts';

export const STATS_TOOL = 'waitlist_stats';

export async function buildServer(ctx: RouteContext): Promise<McpServer> {
  const name = ctx.env === 'sandbox' ? 'waitlist-sandbox' : 'waitlist';
  const server = new McpServer(
    { name, title: `${BRAND.product} waitlist`, version: API_DESCRIPTION_VERSION },
    { instructions: `Join the ${BRAND.product} early-access waitlist, check the service, read its aggregate statistics.` },
  );
  registerTools(server, ctx);
  await registerResources(server, ctx);
  return server;
}

/** The contract's sign-up without its honeypot, the address as text: checkSignup normalises it before it validates, as for a JSON client. */
const JoinWaitlist = WaitlistSignup.omit({ website: true }).extend({
  email: z.string().max(EMAIL_MAX_LENGTH).describe('E-mail address of the person joining; stored lower-cased.'),
});

/** Tool errors name the field, so the agent can correct its call (MCP: errors an LLM can act on). */
const FIELD_ERRORS = {
  invalid_request: 'The arguments do not match the input schema: check every field and its allowed values.',
  invalid_email: 'email: not a valid e-mail address.',
  consent_required: 'consent: must be true, after the address owner has agreed.',
} as const;

function json(value: unknown): CallToolResult {
  return { content: [{ type: 'text', text: JSON.stringify(value) }], structuredContent: value as Record<string, unknown> };
}

function registerTools(server: McpServer, { env, urls, deps }: RouteContext): void {
  server.registerTool(
    'status',
    {
      title: 'Service status',
      description: 'Checks that the waitlist service is up; answers the status probe of the API, with links to its documentation.',
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    async () => json(statusBody(urls, env, deps.clock.now())),
  );

  server.registerTool(
    'join_waitlist',
    {
      title: 'Join the early-access waitlist',
      description: [
        'Adds an e-mail address to the early-access waitlist, or updates its answers when it is already there.',
        'Only call it for a person who has agreed, themselves, to have their address stored and to be e-mailed',
        'about early access: consent must then be true. New and repeated addresses get the same answer.',
        ...(env === 'sandbox' ? ['This is the sandbox: it validates like production and stores nothing.'] : []),
      ].join(' '),
      inputSchema: JoinWaitlist,
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    },
    async (args) => {
      const check = checkSignup({ channel: 'json', value: args });
      if (check.outcome === 'invalid') return { isError: true, content: [{ type: 'text', text: FIELD_ERRORS[check.code] }] };
      // Contract part 1: the sandbox validates and answers like production, and stores nothing.
      if (env === 'production' && check.outcome === 'valid') {
        await deps.store.upsert(check.signup, 'mcp', new Date(deps.clock.now()).toISOString());
      }
      return json({ accepted: true } satisfies Accepted);
    },
  );

  server.registerTool(
    STATS_TOOL,
    {
      title: 'Waitlist statistics',
      description:
        'Aggregate counts of the waitlist (totals, last 7 and 30 days, by language, role, use case and form); no personal data. ' +
        'Needs a Bearer token with scope waitlist:stats:read issued for this MCP endpoint (RFC 8707 resource).',
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    async () => json(env === 'sandbox' ? SANDBOX_STATS : await deps.store.stats(deps.clock.now())),
  );
}

const MIME_TYPES: Record<string, string> = { '.md': 'text/markdown', '.json': 'application/json', '.txt': 'text/plain' };
const DOCUMENTS = [DISCOVERY_PATHS.openapi, DISCOVERY_PATHS.llms].map((file) => file.slice(1));

/** The build's files that are resources (relative to it, with '/' separators): the twins, then the documents. */
async function registerResources(server: McpServer, { deps }: RouteContext): Promise<void> {
  const { DIST_DIR, BASE_URL } = deps.config;
  const all = await readdir(DIST_DIR, { recursive: true }).catch(() => [] as string[]);
  const twins = all.map((file) => file.split(path.sep).join('/')).filter((file) => file.endsWith('.md') && !file.startsWith('.well-known/'));
  for (const file of [...twins.sort(), ...DOCUMENTS.filter((file) => all.includes(file))]) {
    const mimeType = MIME_TYPES[path.extname(file)]!;
    server.registerResource(file, `${BASE_URL}/${file}`, { mimeType }, async (uri) => ({
      contents: [{ uri: uri.href, mimeType, text: await readFile(path.join(DIST_DIR, file), 'utf8') }],
    }));
  }
}
