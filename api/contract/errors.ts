/**
 * Part 7: the closed set of error codes, each with its status. Errors are data: code → status,
 * rendered in exactly one place by the sidecar; callers switch on codes, never on message text.
 */
export const ERROR_STATUS = {
  invalid_request: 400,
  invalid_json: 400,
  unsupported_grant_type: 400,
  invalid_scope: 400,
  invalid_target: 400,
  invalid_client: 401,
  unauthorized: 401,
  invalid_token: 401,
  insufficient_scope: 403,
  not_found: 404,
  method_not_allowed: 405,
  payload_too_large: 413,
  unsupported_media_type: 415,
  invalid_email: 422,
  consent_required: 422,
  rate_limited: 429,
  internal_error: 500,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;
export const ERROR_CODES = Object.keys(ERROR_STATUS) as [ErrorCode, ...ErrorCode[]];

/**
 * Default human messages (the contract leaves message texts open: "not shown").
 * ASCII only, no quotes or backslashes, so they are valid as OAuth `error_description` too
 * (RFC 6749 §5.2).
 */
export const ERROR_MESSAGES: Record<ErrorCode, string> = {
  invalid_request: 'The request is malformed: check the fields against the API documentation.',
  invalid_json: 'The request body is not valid JSON.',
  unsupported_grant_type: 'Only the client_credentials grant type is supported.',
  invalid_scope: 'The requested scope is unknown.',
  invalid_target: 'The requested resource is not served by this authorization server.',
  invalid_client: 'Client authentication failed.',
  unauthorized: 'This endpoint needs a Bearer access token.',
  invalid_token: 'The access token is invalid or has expired.',
  insufficient_scope: 'The access token lacks the required scope.',
  not_found: 'There is no resource at this path.',
  method_not_allowed: 'This method is not allowed on this resource.',
  payload_too_large: 'The request body is larger than 64 KB.',
  unsupported_media_type: 'Send application/json or application/x-www-form-urlencoded.',
  invalid_email: 'The e-mail address is not valid.',
  consent_required: 'Consent is required: set consent to true.',
  rate_limited: 'Too many requests: wait for the number of seconds in Retry-After.',
  internal_error: 'An unexpected error occurred. Please try again later.',
};

/** Part 7: the token endpoint answers its 400 and 401 with `{error, error_description}`. */
export const OAUTH_ERROR_CODES = [
  'invalid_request',
  'invalid_client',
  'unsupported_grant_type',
  'invalid_scope',
  'invalid_target',
] as const satisfies readonly ErrorCode[];
