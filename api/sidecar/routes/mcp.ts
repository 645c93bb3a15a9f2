/**
 * The MCP endpoint of an environment: Streamable HTTP, stateless, JSON answers, one McpServer per
 * request. Revision 2026-07-28 goes to the SDK's per-request handler, 2025-era requests to its
 * stateless transport. Before either sees a request, this route does what the HTTP layer owes:
 * Origin (403, the transport spec's guard against DNS rebinding), size (413), and the Bearer token
 * of this resource (401/403 with resource_metadata, as the MCP authorization spec asks).
 */
import {
  WebStandardStreamableHTTPServerTransport,
  createMcpHandler,
  isLegacyRequest,
  originValidationResponse,
} from '@modelcontextprotocol/server';
import type { H3Event } from 'h3';
import { BODY_LIMIT_BYTES } from '../../contract/index.ts';
import { bearerClaims, requireStatsScope } from '../http/bearer-auth.ts';
import { decodeUtf8, readLimitedBody } from '../http/body.ts';
import { buildServer, STATS_TOOL } from '../mcp/server.ts';
import type { RouteContext } from '../deps.ts';

/** Whether a JSON-RPC message (or batch) in the body calls the tool `name`; false for anything unparsable. */
function callsTool(bytes: Uint8Array, name: string): boolean {
  let body: unknown;
  try {
    body = JSON.parse(decodeUtf8(bytes) ?? '');
  } catch {
    return false;
  }
  const messages = [body].flat() as ({ method?: unknown; params?: { name?: unknown } } | null)[];
  return messages.some((message) => message?.method === 'tools/call' && message.params?.name === name);
}

export async function mcp(event: H3Event, ctx: RouteContext): Promise<Response> {
  const { env, urls, deps } = ctx;
  const refused = originValidationResponse(event.req, [new URL(deps.config.BASE_URL).hostname]);
  if (refused) return refused;
  const bytes = await readLimitedBody(event.req, BODY_LIMIT_BYTES);
  const resource = { env, issuer: urls.issuer, audience: urls.mcp, metadata: urls.mcpResourceMetadata };
  // A token is checked whenever one is sent; only the statistics tool needs one.
  const claims = await bearerClaims(event.req.headers.get('authorization'), resource, deps);
  if (callsTool(bytes, STATS_TOOL)) requireStatsScope(claims, resource);

  const request = new Request(event.req.url, { method: 'POST', headers: event.req.headers, body: bytes as Uint8Array<ArrayBuffer> });
  // 2026-07-28: the per-request handler answers in JSON, as no tool sends anything before its result.
  if (!(await isLegacyRequest(request))) {
    return createMcpHandler(() => buildServer(ctx), { legacy: 'reject' }).fetch(request);
  }
  // 2025-era: the stateless transport, asked for JSON answers (the SDK's own fallback streams SSE).
  const server = await buildServer(ctx);
  const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  await server.connect(transport);
  try {
    return await transport.handleRequest(request);
  } finally {
    await server.close();
  }
}
