/** Contract part 7: the token endpoint's 400 and 401 bodies follow RFC 6749 §5.2; every other route's the API's. */
export function errorStyleOf(route: Route): 'api' | 'oauth' {
  return route.auth === 'client' ? 'oauth' : 'api';
}

/**
 * The fields a route puts on every answer of its path, errors, 405, 429 and 500 included, in both
 * environments. The sidecar adds them to its answers, and the front to the answers it gives
 * itself on that path (a request its HTTP parser refused, a sidecar that failed), so that every
 * answer on the path has what the OpenAPI document promises, whoever decides it.
 */
import type { Environment } from './enums.ts';
import { ENV_PREFIX } from './paths.ts';
import { routeById, type Route, type RouteId } from './routes.ts';

/** When POST /api/waitlist was deprecated: 2026-01-01T00:00:00Z, in Unix seconds. */
export const LEGACY_WAITLIST_DEPRECATED_AT = Date.UTC(2026, 0, 1) / 1000;

/** Lower-case names, as the sidecar's Headers object and node:http both take them. */
export function routeHeaders(which: RouteId | Route, env: Environment): Record<string, string> {
  const route: Route = typeof which === 'string' ? routeById(which) : which;
  if (route.auth === 'client') {
    // RFC 6749 §5.1: answers carrying tokens must not be cached; the same for its errors (§5.2 example).
    return { 'cache-control': 'no-store', pragma: 'no-cache' };
  }
  // An answer that depends on the caller's token is for that caller alone: no cache keeps it.
  if (route.auth === 'bearer') return { 'cache-control': 'no-store' };
  if (route.deprecated) {
    return {
      // RFC 9745 §2.1: an RFC 9651 Date, i.e. "@" and Unix seconds.
      deprecation: `@${LEGACY_WAITLIST_DEPRECATED_AT}`,
      link: `<${ENV_PREFIX[env]}${route.deprecated.successor}>; rel="successor-version"`,
    };
  }
  return {};
}
