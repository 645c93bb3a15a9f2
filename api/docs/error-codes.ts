/**
 * Part 7 as a lookup: which error codes, in which body schema, an operation answers with a status.
 */
import { ERROR_CODES, ERROR_STATUS, OAUTH_ERROR_CODES, errorStyleOf, type ErrorCode, type Route } from '../contract/index.ts';

const OAUTH: readonly ErrorCode[] = OAUTH_ERROR_CODES;

/** Part 7: the token endpoint's 400 and 401 carry the RFC 6749 §5.2 body; every other error is the API's. */
export function usesOAuthError(route: Route, status: number): boolean {
  return errorStyleOf(route) === 'oauth' && (status === 400 || status === 401);
}

/**
 * RFC 6749 §5.2's `invalid_request` is also the generic malformed-request code (RFC 6750 §3.1,
 * part 7's waitlist row); the other OAuth codes exist only at the token endpoint.
 */
export function errorCodesFor(route: Route, status: number): ErrorCode[] {
  const ofStatus = ERROR_CODES.filter((code) => ERROR_STATUS[code] === status);
  if (usesOAuthError(route, status)) return ofStatus.filter((code) => OAUTH.includes(code));
  return ofStatus.filter((code) => !OAUTH.includes(code) || code === 'invalid_request');
}
