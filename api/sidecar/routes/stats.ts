/**
 * Operation 4: waitlist statistics for a Bearer token with scope waitlist:stats:read
 * (RFC 6750 §3, RFC 9068 §4, RFC 9728 §5.1). The sandbox answers fixed example numbers.
 */
import { STATS_SCOPE } from '../../contract/index.ts';
import { SANDBOX_STATS } from '../domain/stats.ts';
import { verifyAccessToken } from '../domain/tokens.ts';
import { bearerCredentials } from '../http/bearer.ts';
import { bearerChallenge } from '../http/challenge.ts';
import { ApiError } from '../http/errors.ts';
import { jsonResponse } from '../http/respond.ts';
import type { H3Event } from 'h3';
import type { RouteContext } from './route-module.ts';

export async function getWaitlistStats(event: H3Event, { env, urls, deps }: RouteContext): Promise<Response> {
  const metadata = urls.protectedResourceMetadata;
  const credentials = bearerCredentials(event.req.headers.get('authorization'));
  if (credentials.kind === 'missing') {
    throw new ApiError('unauthorized', { 'www-authenticate': bearerChallenge(env, metadata) });
  }
  const invalid = () =>
    new ApiError('invalid_token', { 'www-authenticate': bearerChallenge(env, metadata, { error: 'invalid_token' }) });
  if (credentials.kind === 'malformed') throw invalid();

  const now = deps.clock.now();
  const claims = await verifyAccessToken(credentials.token, deps.keys[env], { issuer: urls.issuer, audience: urls.resource }, now);
  if (!claims) throw invalid();
  if (!claims.scope.split(' ').includes(STATS_SCOPE)) {
    const challenge = bearerChallenge(env, metadata, { error: 'insufficient_scope', scope: STATS_SCOPE });
    throw new ApiError('insufficient_scope', { 'www-authenticate': challenge });
  }
  return jsonResponse(200, env === 'sandbox' ? SANDBOX_STATS : await deps.store.stats(now));
}
