/** Errors as data: handlers throw `ApiError(code)`; the API layer (api-layer.ts) renders it. */
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
