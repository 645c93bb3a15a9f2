/** Cross-origin use of the API by browser scripts (Fetch standard, CORS protocol): docs/front.md, "CORS". */
import type http from 'node:http';
import { API_PATHS, API_VERSION, ENV_PREFIX, ENVIRONMENTS } from '../contract/index.ts';

/** Chromium caps the preflight cache at 2 hours (Firefox at 24); longer values are cut to it. */
export const CORS_MAX_AGE_SECONDS = 7200;
const ALLOW_HEADERS = 'Content-Type, Authorization';
/** Response fields a script may read besides the CORS-safelisted ones (Fetch §3.2.3). */
const EXPOSE_HEADERS = [
  'RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset', 'RateLimit-Policy', 'Retry-After',
  'X-API-Version', 'WWW-Authenticate', 'Deprecation', 'Link',
].join(', ');

/** The API paths open to other origins, with the methods each allows (part 4 of the contract). */
const METHODS = new Map<string, readonly string[]>(
  ENVIRONMENTS.flatMap((env) => [
    [`${ENV_PREFIX[env]}${API_PATHS.waitlist}`, ['POST']],
    [`${ENV_PREFIX[env]}${API_PATHS.waitlistLegacy}`, ['POST']],
    [`${ENV_PREFIX[env]}${API_PATHS.stats}`, ['GET', 'HEAD']],
  ]),
);

export type Cors = NonNullable<ReturnType<typeof createCors>>;

export function createCors(origins: readonly string[]) {
  if (origins.length === 0) return undefined;
  const allowed = new Set(origins);
  const methodsOf = (req: http.IncomingMessage) => METHODS.get((req.url ?? '/').split('?', 1)[0]!);
  return {
    /** Answers a preflight from an allowed origin; false when the request goes on to the proxy. */
    preflight(req: http.IncomingMessage, res: http.ServerResponse): boolean {
      const methods = methodsOf(req);
      const origin = req.headers.origin;
      const requested = req.headers['access-control-request-method'];
      if (!methods || req.method !== 'OPTIONS' || origin === undefined || requested === undefined) return false;
      if (!allowed.has(origin) || !methods.includes(requested)) return false;
      res.writeHead(204, [
        'Access-Control-Allow-Origin', origin,
        'Access-Control-Allow-Methods', methods.join(', '),
        'Access-Control-Allow-Headers', ALLOW_HEADERS,
        'Access-Control-Max-Age', String(CORS_MAX_AGE_SECONDS),
        'Vary', 'Origin, Access-Control-Request-Method, Access-Control-Request-Headers',
        'Cache-Control', 'no-store',
        // Every API answer says its version and is nosniff (contract part 9).
        'X-API-Version', API_VERSION,
        'X-Content-Type-Options', 'nosniff',
      ]);
      res.end();
      return true;
    },
    /** The fields the proxied answer gets (Fetch §3.2.5); added beside the sidecar's, never replacing them. */
    fields(req: http.IncomingMessage): readonly string[] {
      // A preflight this hook did not answer is the sidecar's to refuse, without CORS fields.
      if (!methodsOf(req) || (req.method === 'OPTIONS' && req.headers['access-control-request-method'] !== undefined)) return [];
      const origin = req.headers.origin;
      // Whatever the origin, the answer depends on it: shared caches must keep them apart. A second
      // Vary field line adds to the sidecar's (RFC 9110 §5.3).
      if (origin === undefined || !allowed.has(origin)) return ['Vary', 'Origin'];
      return ['Vary', 'Origin', 'Access-Control-Allow-Origin', origin, 'Access-Control-Expose-Headers', EXPOSE_HEADERS];
    },
  };
}
