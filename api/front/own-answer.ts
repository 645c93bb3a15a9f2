/**
 * The API answers the front gives itself: the contract's error body (part 7) with X-API-Version
 * (part 9), the RateLimit-* fields (part 8, rate-limit-mirror.ts), nosniff, no-store and the
 * fields the route puts on every answer of its path (api/contract/route-headers.ts): on the token
 * endpoint a 400 is `{error, error_description}` (RFC 6749 §5.2) with no-store and no-cache, on
 * the deprecated alias every answer says Deprecation and Link. Used for the proxy's 500 (sidecar
 * down, failed, silent) and for the requests the front refuses before the sidecar sees them
 * (parser-refusal.ts, host-field.ts).
 */
import { API_VERSION, ERROR_MESSAGES, ERROR_STATUS, OAUTH_ERROR_CODES, mountedRoute, routeHeaders, type ErrorCode, type MountedRoute } from '../contract/index.ts';
import { decodeUnreserved } from './request-path.ts';

export interface OwnAnswer {
  status: number;
  headers: string[];
  body: string;
}

/** The fields every API answer carries (parts 8 and 9), for an answer the front gives itself. */
export function ownApiFields(rateLimitFields: readonly string[]): string[] {
  return ['X-API-Version', API_VERSION, 'X-Content-Type-Options', 'nosniff', ...rateLimitFields];
}

/**
 * The route whose path `target` names, read as the sidecar's router reads it: without the query,
 * unreserved characters decoded, dot segments resolved (the WHATWG URL parser, as h3 does).
 */
export function routeOfTarget(target: string): MountedRoute | undefined {
  if (!target.startsWith('/')) return undefined;
  const path = decodeUnreserved(target.split('?', 1)[0]!);
  const direct = mountedRoute(path);
  if (direct || !/\/\.|%2e/i.test(path)) return direct;
  try {
    return mountedRoute(new URL(path, 'http://front.invalid').pathname);
  } catch {
    return undefined;
  }
}

/** `code` as the route at `target` would answer it; a target no route owns gets the plain shape. */
export function ownApiError(code: ErrorCode, rateLimitFields: readonly string[], target = ''): OwnAnswer {
  const status = ERROR_STATUS[code];
  const at = routeOfTarget(target);
  // Contract part 7: the token endpoint's 400 and 401 are OAuthError, every other error is Error.
  const oauth = at?.route.auth === 'client' && (status === 400 || status === 401) && (OAUTH_ERROR_CODES as readonly string[]).includes(code);
  const body = JSON.stringify(oauth ? { error: code, error_description: ERROR_MESSAGES[code] } : { error: code, message: ERROR_MESSAGES[code] });
  const own = at ? routeHeaders(at.route, at.env) : {};
  const headers = ['Content-Type', 'application/json', 'Content-Length', String(Buffer.byteLength(body))];
  if (!('cache-control' in own)) headers.push('Cache-Control', 'no-store');
  for (const name in own) headers.push(name, own[name]!);
  return { status, headers: [...headers, ...ownApiFields(rateLimitFields)], body };
}
