/**
 * Errors as data: handlers throw `ApiError(code)`; `errorResponse` is the one renderer.
 * Contract part 7: every error body is `{error, message}`, except the token endpoint's 400 and
 * 401, which are `{error, error_description}` (RFC 6749 §5.2).
 */
import { ERROR_MESSAGES, ERROR_STATUS, OAUTH_ERROR_CODES, type ErrorCode } from '../../contract/index.ts';
import { jsonResponse } from './respond.ts';

export class ApiError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;

  constructor(code: ErrorCode, headers: Record<string, string> = {}) {
    super(ERROR_MESSAGES[code]);
    this.name = 'ApiError';
    this.code = code;
    this.status = ERROR_STATUS[code];
    this.headers = headers;
  }
}

/** `style`: which body shape the endpoint uses for its OAuth errors (errorStyleOf). */
export function errorResponse(error: ApiError, style: 'api' | 'oauth'): Response {
  // The OAuth codes are exactly the token endpoint's 400 and 401 answers.
  const oauth = style === 'oauth' && (OAUTH_ERROR_CODES as readonly string[]).includes(error.code);
  const body = oauth
    ? { error: error.code, error_description: ERROR_MESSAGES[error.code] }
    : { error: error.code, message: ERROR_MESSAGES[error.code] };
  return jsonResponse(error.status, body, error.headers);
}
