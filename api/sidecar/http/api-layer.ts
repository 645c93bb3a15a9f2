/**
 * The one middleware every request passes, so every response has the same shape: rate limiting,
 * unknown paths to 404, error rendering, the API headers (X-API-Version, RateLimit-*, the route
 * table's own) on every answer, HEAD without a body.
 */
import { getRequestIP, type Middleware } from 'h3';
import { FastResponse } from 'srvx';
import { API_VERSION, errorStyleOf, rateLimitPolicy, routeHeaders, type RateLimitPolicy } from '../../contract/index.ts';
import type { AppDeps } from '../deps.ts';
import type { Mount } from '../mount.ts';
import { addressBucket, clientAddress, type Trusted } from '../../net/client-address.ts';
import { ApiError, errorResponse } from './errors.ts';
import { requestLogger } from './log.ts';
import { reportFailure } from './failure.ts';
import { addHeaders } from './respond.ts';
import { rateLimitHeaders, type RateLimitStore } from './rate-limit/decision.ts';

/** The app's parts, its rate-limit engine, the trusted proxies and the mounted routes by full path. */
type LayerDeps = AppDeps & { limiter: RateLimitStore; trust: Trusted; mounts: ReadonlyMap<string, Mount> };

/** Distinct (peer, X-Forwarded-For) pairs whose bucket is remembered. */
const BUCKET_CACHE_SIZE = 1024;
/** Longer pairs (a long X-Forwarded-For chain) are parsed each time, so the cache stays small. */
const BUCKET_KEY_MAX = 200;

export function apiLayer(deps: LayerDeps): Middleware {
  const { config, clock, limiter, trust, mounts } = deps;
  const limits: Record<RateLimitPolicy, number> = {
    relaxed: config.RATE_LIMIT_RELAXED,
    standard: config.RATE_LIMIT_STANDARD,
  };

  // A (peer, X-Forwarded-For) pair's bucket never changes and the same few pairs come back: recent ones are kept (docs/performance.md).
  const buckets = new Map<string, string>();
  const bucketOf = (peer: string | undefined, forwarded: string | null): string => {
    const key = `${peer ?? ''}\n${forwarded ?? ''}`;
    let bucket = buckets.get(key);
    if (bucket === undefined) {
      bucket = addressBucket(clientAddress(peer, forwarded, trust), config.RATE_LIMIT_IPV6_PREFIX);
      if (key.length > BUCKET_KEY_MAX) return bucket;
      if (buckets.size >= BUCKET_CACHE_SIZE) buckets.clear();
      buckets.set(key, bucket);
    }
    return bucket;
  };

  return async (event, next) => {
    const method = event.req.method.toUpperCase();
    const path = event.url.pathname;
    const mounted = mounts.get(path);
    const policy = rateLimitPolicy(path, method);
    const bucket = bucketOf(getRequestIP(event), event.req.headers.get('x-forwarded-for'));
    const decision = await limiter.hit(policy, bucket, limits[policy], clock.now());

    let response: Response;
    const style = mounted ? errorStyleOf(mounted.route) : 'api';
    if (!decision.allowed) {
      // RFC 6585 §4 + ratelimit-headers: Retry-After points to the same moment as RateLimit-Reset.
      response = errorResponse(new ApiError('rate_limited', { 'retry-after': String(decision.resetSeconds) }), style);
    } else if (!mounted) {
      response = errorResponse(new ApiError('not_found'), 'api');
    } else {
      try {
        const result = await next();
        response = result instanceof Response ? result : errorResponse(new ApiError('not_found'), 'api');
      } catch (error) {
        // A hang-up is one quiet line, anything else one error line with an id (failure.ts).
        const logger = requestLogger(deps.logger, event.req.headers);
        const apiError = error instanceof ApiError ? error : reportFailure(logger, event.req, method, path, error);
        response = errorResponse(apiError, style);
      }
    }

    // Every response here was built by this app (http/respond.ts), so its headers are mutable.
    const own = mounted ? routeHeaders(mounted.route, mounted.env) : {};
    addHeaders(response, { 'x-api-version': API_VERSION, ...rateLimitHeaders(decision), ...own });
    // RFC 9110 §9.3.2: HEAD answers with the headers of GET and no content.
    if (method === 'HEAD' && response.body) response = new FastResponse(null, { status: response.status, headers: response.headers });
    return response;
  };
}
