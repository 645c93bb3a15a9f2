/**
 * Numbers and constants fixed by the contract (the specification's parts 2, 5, 8 and 9).
 * This file and its siblings are the only place where a contract literal is written.
 */

/** Part 8: request body limit of the token and waitlist operations (64 KB). */
export const BODY_LIMIT_BYTES = 64 * 1024;

/** Part 2 / part 8: maximum length of an e-mail address. */
export const EMAIL_MAX_LENGTH = 254;

/** Part 5 / part 8: access token lifetime in seconds. */
export const TOKEN_TTL_SECONDS = 900;

/** Part 5: the only scope. */
export const STATS_SCOPE = 'waitlist:stats:read';
export const SCOPES = [STATS_SCOPE] as const;

/** Part 9: `X-API-Version` header and `apiVersion` field. */
export const API_VERSION = '1';

/** Part 2: `service` field of the status probe. */
export const SERVICE_NAME = 'site-web';

/** Part 9: OpenAPI document version and the version of the API it describes. */
export const OPENAPI_VERSION = '3.1.0';
export const API_DESCRIPTION_VERSION = '1.1.0';

/** Part 1 / part 5: the public sandbox client. */
export const SANDBOX_CLIENT_ID = 'sandbox';
export const SANDBOX_CLIENT_SECRET = 'sandbox';

/** Part 8: rate-limit policies. Each has its own 60-second window. */
export const RATE_LIMIT_WINDOW_SECONDS = 60;
export const RATE_LIMIT_POLICIES = {
  /** GET and HEAD on the status probe, and every sandbox call. */
  relaxed: 120,
  /** Every other call. */
  standard: 30,
} as const;
export type RateLimitPolicy = keyof typeof RATE_LIMIT_POLICIES;
