/**
 * One line per request: method, path, status, duration. Never the query string, and nothing that
 * looks like an e-mail address (a path segment holding `@` or `%40` is masked).
 */
const MAX_PATH = 200;

export function requestLine(method: string, target: string, status: number | string, ms: number): string {
  return `${method} ${loggablePath(target)} ${status} ${ms.toFixed(1)}ms`;
}

export function loggablePath(target: string): string {
  const path = target.split('?', 1)[0].split('#', 1)[0];
  const masked = path
    .split('/')
    .map((segment) => (/@|%40/i.test(segment) ? '[redacted]' : segment))
    .join('/')
    // Control characters and spaces would let a client forge log lines.
    .replace(/[^\x21-\x7e]/g, '?');
  return masked.length > MAX_PATH ? `${masked.slice(0, MAX_PATH)}…` : masked;
}
