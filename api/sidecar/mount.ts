/**
 * The mount table: every operation of the contract's route table (ROUTES) and the MCP endpoint in
 * both environments, production under '' and the sandbox under '/sandbox' (ENV_PREFIX), each
 * joined with its handler.
 */
import type { H3Event } from 'h3';
import { ENVIRONMENTS, ENV_PREFIX, MCP_ROUTE, ROUTES, apiIndexBody, statusBody, type RouteId } from '../contract/index.ts';
import type { RouteContext } from './deps.ts';
import { SANDBOX_STATS } from './domain/stats.ts';
import { bearerClaims, requireStatsScope } from './http/bearer-auth.ts';
import { jsonResponse } from './http/respond.ts';
import { mcp } from './routes/mcp.ts';
import { createToken } from './routes/token.ts';
import { joinWaitlist } from './routes/waitlist.ts';

/** One handler per operation of the contract; its headers and error style come from the route table. */
const HANDLERS: Record<RouteId, (event: H3Event, ctx: RouteContext) => Promise<Response>> = {
  // Operation 1: the zero-auth status probe.
  getStatus: async (_event, { env, urls, deps }) => jsonResponse(200, statusBody(urls, env, deps.clock.now())),
  createToken,
  joinWaitlist,
  // Operation 4: statistics for a Bearer token with the statistics scope (RFC 6750 §3, RFC 9068 §4); the sandbox's are fixed.
  getWaitlistStats: async (event, { env, urls, deps }) => {
    const resource = { env, issuer: urls.issuer, audience: urls.resource, metadata: urls.protectedResourceMetadata };
    requireStatsScope(await bearerClaims(event.req.headers.get('authorization'), resource, deps), resource);
    return jsonResponse(200, env === 'sandbox' ? SANDBOX_STATS : await deps.store.stats(deps.clock.now()));
  },
  // Operation 5, the deprecated alias, behaves exactly like operation 3.
  joinWaitlistLegacy: joinWaitlist,
  // Operation 6: the zero-auth index of a base path, with absolute links.
  getApiIndex: async (_event, { env, urls }) => jsonResponse(200, apiIndexBody(urls, env)),
  mcp,
};

/** Every operation in every environment, with its full path (environment prefix included). */
export function mountTable() {
  return ENVIRONMENTS.flatMap((env) =>
    [...ROUTES, MCP_ROUTE].map((route) => ({ env, path: `${ENV_PREFIX[env]}${route.path}`, route, handler: HANDLERS[route.id] })),
  );
}
export type Mount = ReturnType<typeof mountTable>[number];
