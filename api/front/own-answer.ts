/**
 * The API answers the front gives itself: the contract's `{error, message}` body (part 7) with
 * X-API-Version (part 9), the RateLimit-* fields (part 8, rate-limit-mirror.ts), nosniff and
 * no-store. Used for the proxy's 500 (sidecar down, failed, silent) and for requests node:http's
 * parser refuses (parser-refusal.ts).
 */
import { API_VERSION, ERROR_MESSAGES, ERROR_STATUS, type ErrorCode } from '../contract/index.ts';

export interface OwnAnswer {
  status: number;
  headers: string[];
  body: string;
}

/** The fields every API answer carries (parts 8 and 9), for an answer the front gives itself. */
export function ownApiFields(rateLimitFields: readonly string[]): string[] {
  return ['X-API-Version', API_VERSION, 'X-Content-Type-Options', 'nosniff', ...rateLimitFields];
}

export function ownApiError(code: ErrorCode, rateLimitFields: readonly string[]): OwnAnswer {
  const body = JSON.stringify({ error: code, message: ERROR_MESSAGES[code] });
  return {
    status: ERROR_STATUS[code],
    headers: [
      'Content-Type', 'application/json',
      'Content-Length', String(Buffer.byteLength(body)),
      'Cache-Control', 'no-store',
      ...ownApiFields(rateLimitFields),
    ],
    body,
  };
}
