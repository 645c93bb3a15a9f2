/**
 * Cross-origin use of the API by browser scripts (Fetch standard, CORS protocol), off unless
 * CORS_ORIGINS lists origins. Only what a web page of a partner needs: signing up and reading
 * statistics. The token endpoint is left out on purpose: a client secret does not belong in a
 * browser, so a page gets its statistics token from its own server (docs/front.md, "CORS").
 * Origins not on the list get no CORS header at all, and their preflight reaches the sidecar
 * like any OPTIONS (405), which the browser reports as a CORS failure.
 */
import type http from 'node:http';
import { API_PATHS, ENV_PREFIX, ENVIRONMENTS } from '../contract/index.ts';

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

/** Returns true when it answered the request (a preflight); otherwise the request goes on to the proxy. */
export type CorsHook = (req: http.IncomingMessage, res: http.ServerResponse) => boolean;

/**
 * `apiFields` gives the fields every API answer carries (X-API-Version, nosniff, RateLimit-*:
 * own-answer.ts); the preflight is answered here, not by the sidecar, and must carry them too.
 */
export function createCors(origins: readonly string[], apiFields: (req: http.IncomingMessage) => string[] = () => []): CorsHook | undefined {
  if (origins.length === 0) return undefined;
  const allowed = new Set(origins);
  return (req, res) => {
    const methods = METHODS.get((req.url ?? '/').split('?', 1)[0]!);
    if (!methods) return false;
    const origin = req.headers.origin;
    const requested = req.headers['access-control-request-method'];
    if (req.method === 'OPTIONS' && origin !== undefined && requested !== undefined) {
      if (!allowed.has(origin) || !methods.includes(requested)) return false;
      res.writeHead(204, [
        'Access-Control-Allow-Origin', origin,
        'Access-Control-Allow-Methods', methods.join(', '),
        'Access-Control-Allow-Headers', ALLOW_HEADERS,
        'Access-Control-Max-Age', String(CORS_MAX_AGE_SECONDS),
        'Vary', 'Origin, Access-Control-Request-Method, Access-Control-Request-Headers',
        'Cache-Control', 'no-store',
        ...apiFields(req),
      ]);
      res.end();
      return true;
    }
    // Whatever the origin, the answer depends on it: shared caches must keep them apart.
    res.setHeader('Vary', 'Origin');
    keepVaryOrigin(res);
    if (origin !== undefined && allowed.has(origin)) {
      res.setHeader('Access-Control-Allow-Origin', origin);
      res.setHeader('Access-Control-Expose-Headers', EXPOSE_HEADERS);
    }
    return false;
  };
}

/**
 * node:http lets a `Vary` passed to writeHead replace the one set with setHeader; should the
 * sidecar ever send its own Vary, Origin is added to it instead of being lost.
 */
function keepVaryOrigin(res: http.ServerResponse): void {
  const writeHead = res.writeHead;
  res.writeHead = function (this: http.ServerResponse, status: number, ...rest: unknown[]) {
    const index = rest.findIndex((arg) => Array.isArray(arg));
    if (index >= 0) {
      const headers = [...(rest[index] as string[])];
      for (let i = 0; i < headers.length; i += 2) {
        if (headers[i]!.toLowerCase() === 'vary' && !/\borigin\b/i.test(headers[i + 1]!)) headers[i + 1] = `${headers[i + 1]}, Origin`;
      }
      rest[index] = headers;
    }
    return (writeHead as (...args: unknown[]) => http.ServerResponse).call(this, status, ...rest);
  } as typeof res.writeHead;
}
