/**
 * The one middleware every request passes, so every response has the same shape: rate limiting,
 * unknown paths to 404, error rendering (the one place an ApiError becomes an answer), the API
 * headers (X-API-Version, RateLimit-*, the route table's own) on every answer, HEAD without a body.
 */
import { randomBytes } from 'node:crypto';
import { getRequestIP, type Middleware } from 'h3';
import { FastResponse } from 'srvx';
import { API_VERSION, ERROR_MESSAGES, errorStyleOf, OAUTH_ERROR_CODES, rateLimitPolicy, routeHeaders, type RateLimitPolicy } from '../../contract/index.ts';
import type { AppDeps } from '../deps.ts';
import type { Mount } from '../mount.ts';
import { addressBucket, clientAddress, type Trusted } from '../../net/client-address.ts';
import { EngineUnavailableError } from '../health/engine-health.ts';
import { redactPath } from '../../log/redact.ts';
import { acceptableRequestId, REQUEST_ID_HEADER } from '../../log/request-id.ts';
import { errorDetail, type Logger } from './log.ts';
import { addHeaders, ApiError, jsonResponse } from './respond.ts';
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
    try {
      // RFC 6585 §4 + ratelimit-headers: Retry-After points to the same moment as RateLimit-Reset.
      if (!decision.allowed) throw new ApiError('rate_limited', { 'retry-after': String(decision.resetSeconds) });
      const result = mounted ? await next() : undefined;
      if (!(result instanceof Response)) throw new ApiError('not_found');
      response = result;
    } catch (error) {
      const { code, status, headers } = error instanceof ApiError ? error : reportFailure(deps.logger, event.req, method, path, error);
      // Contract part 7: every error body is `{error, message}`, except the token endpoint's 400 and
      // 401 (exactly its OAuth codes), which are `{error, error_description}` (RFC 6749 §5.2).
      const oauth = mounted && errorStyleOf(mounted.route) === 'oauth' && (OAUTH_ERROR_CODES as readonly string[]).includes(code);
      const message = ERROR_MESSAGES[code];
      response = jsonResponse(status, oauth ? { error: code, error_description: message } : { error: code, message }, headers);
    }

    // Every response here was built by this app (http/respond.ts), so its headers are mutable.
    const own = mounted ? routeHeaders(mounted.route, mounted.env) : {};
    addHeaders(response, { 'x-api-version': API_VERSION, ...rateLimitHeaders(decision), ...own });
    // RFC 9110 §9.3.2: HEAD answers with the headers of GET and no content.
    if (method === 'HEAD' && response.body) response = new FastResponse(null, { status: response.status, headers: response.headers });
    return response;
  };
}

/**
 * The ApiError for an exception that is not one, and what is logged: a client that hung up (srvx
 * aborts the request's signal), one quiet line; an engine away, nothing (its health tells the
 * outage, the request adds to its count); anything else, one error line with a fresh error id, the
 * 500 body saying nothing from the inside.
 */
export function reportFailure(logger: Logger, request: Request, method: string, path: string, error: unknown): ApiError {
  // The lines carry the front's request id when there is one.
  const id = acceptableRequestId(request.headers.get(REQUEST_ID_HEADER) ?? undefined);
  const log = id && logger.child ? logger.child({ reqId: id }) : logger;
  if (request.signal?.aborted) {
    log.info(`client closed the connection before the answer: ${method} ${redactPath(path)}`);
    // Nobody reads this answer; 400 because what arrived was an incomplete request, not our fault.
    return new ApiError('invalid_request');
  }
  if (error instanceof EngineUnavailableError) {
    error.health.requestAffected();
    return new ApiError('internal_error');
  }
  // 12 hex digits: enough to find one line in a day's log, short enough to read out on the phone.
  log.error(`error id ${randomBytes(6).toString('hex')}: ${errorDetail(method, path, error)}`);
  return new ApiError('internal_error');
}
