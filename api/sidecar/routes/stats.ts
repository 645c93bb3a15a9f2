/** Operation 4: waitlist statistics for a Bearer token with the statistics scope (RFC 6750 §3, RFC 9068 §4); the sandbox's are fixed. */
import type { H3Event } from 'h3';
import { SANDBOX_STATS } from '../domain/stats.ts';
import { bearerClaims, requireStatsScope } from '../http/bearer-auth.ts';
import { jsonResponse } from '../http/respond.ts';
import type { RouteContext } from '../deps.ts';

export async function getWaitlistStats(event: H3Event, { env, urls, deps }: RouteContext): Promise<Response> {
  const resource = { env, issuer: urls.issuer, audience: urls.resource, metadata: urls.protectedResourceMetadata };
  requireStatsScope(await bearerClaims(event.req.headers.get('authorization'), resource, deps), resource);
  return jsonResponse(200, env === 'sandbox' ? SANDBOX_STATS : await deps.store.stats(deps.clock.now()));
}
