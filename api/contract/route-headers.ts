/**
 * What a route's answers carry besides their body, decided by its row of the route table: the
 * shape of its errors and the header fields of every answer on its path (errors, 405, 429 and 500
 * included, in both environments), as the OpenAPI document promises.
 */
import type { Environment } from './enums.ts';
import { ENV_PREFIX } from './paths.ts';
import type { Route } from './routes.ts';

/** Contract part 7: the token endpoint's 400 and 401 bodies follow RFC 6749 §5.2; every other route's the API's. */
export function errorStyleOf(route: Route): 'api' | 'oauth' {
  return route.auth === 'client' ? 'oauth' : 'api';
}

/** When POST /api/waitlist was deprecated: 2026-01-01T00:00:00Z, in Unix seconds. */
export const LEGACY_WAITLIST_DEPRECATED_AT = Date.UTC(2026, 0, 1) / 1000;

/** Lower-case names, as the sidecar's answers take them. */
export function routeHeaders(route: Route, env: Environment): Record<string, string> {
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
