/**
 * Request logging: one line per request (method, path without query, status, duration). Paths are
 * chosen by the caller, so anything that looks like an e-mail address or a JWT is masked before a
 * line is written; query strings and headers are never logged.
 */

export interface Logger {
  info(line: string): void;
  error(line: string): void;
}

export const silentLogger: Logger = { info() {}, error() {} };

const EMAIL_LIKE = /[^\s/?#]*(?:@|%40)[^\s/?#]*/gi;
const JWT_LIKE = /eyJ[\w-]*\.[\w-]*\.?[\w-]*/g;
// Control characters would let a request forge extra log lines.
const CONTROL = /[\u0000-\u001f\u007f]/g;

export function redact(text: string): string {
  return text.replace(CONTROL, '?').replace(EMAIL_LIKE, '[redacted]').replace(JWT_LIKE, '[redacted]');
}

export function requestLine(method: string, path: string, status: number, durationMs: number): string {
  return redact(`${method} ${path} ${status} ${durationMs.toFixed(1)}ms`);
}

/** The detail of an unexpected error, for the log only (never for the response). */
export function errorDetail(method: string, path: string, error: unknown): string {
  const detail = error instanceof Error ? (error.stack ?? `${error.name}: ${error.message}`) : String(error);
  return redact(`internal error on ${method} ${path}: ${detail.replace(/\n\s*/g, ' | ')}`);
}
