/**
 * Part 7 as a lookup: which error codes, in which body schema, an operation answers with a status.
 */
import type { z } from 'zod';
import {
  ERROR_CODES,
  ERROR_STATUS,
  ErrorBody,
  OAUTH_ERROR_CODES,
  OAuthErrorBody,
  type ErrorCode,
  type Route,
} from '../contract/index.ts';

const OAUTH: readonly ErrorCode[] = OAUTH_ERROR_CODES;

/**
 * Part 7: only the token endpoint (client authentication) answers 400 and 401 with the RFC 6749
 * §5.2 body `{error, error_description}`; every other error is `{error, message}`.
 */
export function usesOAuthError(route: Route, status: number): boolean {
  return route.auth === 'client' && (status === 400 || status === 401);
}

export function errorSchemaFor(route: Route, status: number): z.ZodType {
  return usesOAuthError(route, status) ? OAuthErrorBody : ErrorBody;
}

/**
 * RFC 6749 §5.2's `invalid_request` is also the generic malformed-request code (RFC 6750 §3.1,
 * part 7's waitlist row); the other OAuth codes exist only at the token endpoint.
 */
const SHARED_OAUTH_CODES: readonly ErrorCode[] = ['invalid_request'] satisfies ErrorCode[];

export function errorCodesFor(route: Route, status: number): ErrorCode[] {
  const ofStatus = ERROR_CODES.filter((code) => ERROR_STATUS[code] === status);
  if (usesOAuthError(route, status)) return ofStatus.filter((code) => OAUTH.includes(code));
  return ofStatus.filter((code) => !OAUTH.includes(code) || SHARED_OAUTH_CODES.includes(code));
}
