/**
 * The two answers the front gives itself instead of the sidecar (docs/front.md), each fixed, in the
 * contract's Error shape (part 7) with X-API-Version (part 9): REFUSED for what is not HTTP the front
 * can carry (server.ts, target.ts), FAILED for an API request no sidecar answered (proxy.ts). They
 * carry no RateLimit-* fields: no sidecar counted these requests, and the counting is the sidecar's alone.
 */
import { STATUS_CODES, type ServerResponse } from 'node:http';
import { API_VERSION, ERROR_MESSAGES, ERROR_STATUS, type ErrorCode } from '../contract/index.ts';

function errorAnswer(code: ErrorCode, extra: readonly string[] = []) {
  const body = JSON.stringify({ error: code, message: ERROR_MESSAGES[code] });
  return {
    status: ERROR_STATUS[code],
    headers: [
      'Content-Type', 'application/json',
      'Content-Length', String(Buffer.byteLength(body)),
      'Cache-Control', 'no-store',
      'X-API-Version', API_VERSION,
      'X-Content-Type-Options', 'nosniff',
      ...extra,
    ],
    body,
  };
}

export const REFUSED = errorAnswer('invalid_request', ['Connection', 'close']);
export const FAILED = errorAnswer('internal_error');

/** REFUSED as bytes, for a socket node:http no longer drives (its parser gave up, or a tunnel). */
export const REFUSED_BYTES = Buffer.from(
  `HTTP/1.1 ${REFUSED.status} ${STATUS_CODES[REFUSED.status]}\r\n` +
    REFUSED.headers.map((field, i) => (i % 2 ? `${field}\r\n` : `${field}: `)).join('') +
    `\r\n${REFUSED.body}`,
  'latin1',
);

/** Sends one of the answers above; RFC 9110 §9.3.2: HEAD gets the headers only. */
export function sendOwn(res: ServerResponse, answer: ReturnType<typeof errorAnswer>, extra: readonly string[] = []): void {
  res.writeHead(answer.status, [...answer.headers, ...extra]);
  res.end(res.req.method === 'HEAD' ? undefined : answer.body);
}
