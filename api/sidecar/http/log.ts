/**
 * Request logging: one line per request (method, path without query, status, duration). Paths are
 * chosen by the caller, so anything that looks like an e-mail address or a JWT is masked before a
 * line is written (api/log/redact.ts, shared with the front); query strings and headers are never logged.
 */
import { redact, redactPath } from '../../log/redact.ts';

export { redact };

export interface Logger {
  info(line: string): void;
  error(line: string): void;
}

export const silentLogger: Logger = { info() {}, error() {} };

export function requestLine(method: string, path: string, status: number, durationMs: number): string {
  return `${redact(method)} ${redactPath(path)} ${status} ${durationMs.toFixed(1)}ms`;
}

/** The detail of an unexpected error, for the log only (never for the response). */
export function errorDetail(method: string, path: string, error: unknown): string {
  const detail = error instanceof Error ? (error.stack ?? `${error.name}: ${error.message}`) : String(error);
  return redact(`internal error on ${method} ${redactPath(path)}: ${detail.replace(/\n\s*/g, ' | ')}`);
}
