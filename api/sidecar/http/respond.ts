/**
 * Response builders: errors as data (handlers throw `ApiError(code)`, the API layer renders it),
 * compact JSON bodies, and `X-Content-Type-Options: nosniff` on every answer, so a browser never
 * sniffs an API answer into something it would render. The answers are srvx's FastResponse, whose
 * string body and headers go to node:http's socket as they are, without a web stream (docs/performance.md).
 */
import { FastResponse } from 'srvx';
import { ERROR_MESSAGES, ERROR_STATUS, type ErrorCode } from '../../contract/index.ts';

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

const NOSNIFF = { 'x-content-type-options': 'nosniff' } as const;

/**
 * The header fields of each answer built here, as the plain object it was built with: a
 * FastResponse makes a Headers object only when `.headers` is read, so the API layer adds its
 * fields here and none is made (docs/performance.md).
 */
const fieldsOf = new WeakMap<Response, Record<string, string>>();

function answer(body: string | null, status: number, fields: Record<string, string>): Response {
  const response = new FastResponse(body, { status, headers: fields });
  fieldsOf.set(response, fields);
  return response;
}

export function jsonResponse(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return answer(JSON.stringify(body), status, { 'content-type': 'application/json', ...NOSNIFF, ...headers });
}

/** Contract part 8: the 303 shows only a Location header (the API headers are added later). */
export function seeOther(location: string): Response {
  return answer(null, 303, { location, ...NOSNIFF });
}

/** Sets header fields (lower-case names) on an answer: into its field object when it was built here, else into its Headers. */
export function addHeaders(response: Response, fields: Record<string, string>): void {
  const own = fieldsOf.get(response);
  if (own) Object.assign(own, fields);
  else for (const [name, value] of Object.entries(fields)) response.headers.set(name, value);
}
