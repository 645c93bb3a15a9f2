/**
 * One line per request: method, path, status, duration. Never the query string; the path goes
 * through the shared redaction (api/log/redact.ts), so addresses and tokens in any spelling are masked.
 */
import { redact, redactPath } from '../log/redact.ts';

export function requestLine(method: string, target: string, status: number | string, ms: number): string {
  return `${redact(method)} ${loggablePath(target)} ${status} ${ms.toFixed(1)}ms`;
}

export const loggablePath = redactPath;
