/** What the sidecar logs (docs/api.md, "Logs"); every line passes the shared redaction (api/log/redact.ts). */
import { redact, redactPath } from '../../log/redact.ts';

/** A pino logger in the process (api/log/logger.ts); a capturing one in tests. */
export interface Logger {
  info(line: string): void;
  error(line: string): void;
  /** A logger whose lines carry these fields (pino's child loggers). */
  child?(bindings: Record<string, string>): Logger;
}

export const silentLogger: Logger = { info() {}, error() {} };

/** The detail of an unexpected error, for the log only (never for the response). */
export function errorDetail(method: string, path: string, error: unknown): string {
  const detail = error instanceof Error ? (error.stack ?? `${error.name}: ${error.message}`) : String(error);
  return redact(`internal error on ${method} ${redactPath(path)}: ${detail.replace(/\n\s*/g, ' | ')}`);
}
