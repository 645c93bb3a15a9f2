/** Bearer access (RFC 6750 §3, RFC 9728 §5.1) to the statistics and the MCP endpoint, each its own resource and token audience. */
import { STATS_SCOPE, type Environment } from '../../contract/index.ts';
import type { AppDeps } from '../deps.ts';
import { verifyAccessToken, withinLifetime, type AccessTokenClaims, type Audience } from '../domain/tokens.ts';
import { ApiError } from './respond.ts';

/** WWW-Authenticate realms: one protection space per environment, as production and sandbox accept different credentials. */
export function realmOf(env: Environment): string {
  return env === 'production' ? 'waitlist' : 'waitlist-sandbox';
}

/** The resource's identifier is its tokens' audience; `metadata` is its RFC 9728 URL, named in every challenge. */
type ProtectedResource = Audience & { env: Environment; metadata: string };

/** RFC 6750 §2.1: `Authorization: Bearer <b64token>`; the scheme name is case-insensitive (RFC 9110 §11.1). */
const BEARER = /^bearer(?:[ \t]+(.*))?$/i;
const B64TOKEN = /^[A-Za-z0-9\-._~+/]+=*$/;

/**
 * Tokens verified with each key, by issuer, audience and token (docs/performance.md): a client polls
 * with one token for its lifetime. Every use still checks the lifetime; only verified tokens enter.
 */
const verified = new WeakMap<Uint8Array, Map<string, AccessTokenClaims>>();
const MAX_VERIFIED = 10_000;

async function verifiedClaims(token: string, key: Uint8Array, target: Audience, now: number): Promise<AccessTokenClaims | undefined> {
  let known = verified.get(key);
  if (!known) verified.set(key, (known = new Map()));
  const id = `${target.issuer} ${target.audience} ${token}`;
  const seen = known.get(id);
  if (seen) return withinLifetime(seen, now) ? seen : undefined;
  const claims = await verifyAccessToken(token, key, target, now);
  if (claims) {
    if (known.size >= MAX_VERIFIED) known.clear();
    known.set(id, claims);
  }
  return claims;
}

/** RFC 6750 §3 + RFC 9728 §5.1: `error` only when a token was presented, `scope` with insufficient_scope, always the resource metadata. */
function challenge(resource: ProtectedResource, error?: 'invalid_token' | 'insufficient_scope'): Record<string, string> {
  const params = [`realm="${realmOf(resource.env)}"`];
  if (error) params.push(`error="${error}"`);
  if (error === 'insufficient_scope') params.push(`scope="${STATS_SCOPE}"`);
  params.push(`resource_metadata="${resource.metadata}"`);
  return { 'www-authenticate': `Bearer ${params.join(', ')}` };
}

/** The claims of the request's token; undefined without one; 401 invalid_token for a bad one. */
export async function bearerClaims(authorization: string | null, resource: ProtectedResource, deps: AppDeps): Promise<AccessTokenClaims | undefined> {
  // RFC 6750 §3.1: another scheme (e.g. Basic) means no Bearer credentials at all.
  const match = authorization === null ? null : BEARER.exec(authorization.trim());
  if (!match) return undefined;
  const token = (match[1] ?? '').trim();
  const claims = B64TOKEN.test(token) ? await verifiedClaims(token, deps.keys[resource.env], resource, deps.clock.now()) : undefined;
  if (!claims) throw new ApiError('invalid_token', challenge(resource, 'invalid_token'));
  return claims;
}

/** 401 without a token, 403 insufficient_scope without the statistics scope. */
export function requireStatsScope(claims: AccessTokenClaims | undefined, resource: ProtectedResource): void {
  if (!claims) throw new ApiError('unauthorized', challenge(resource));
  if (!claims.scope.split(' ').includes(STATS_SCOPE)) throw new ApiError('insufficient_scope', challenge(resource, 'insufficient_scope'));
}
