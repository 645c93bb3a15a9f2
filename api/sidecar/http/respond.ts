/**
 * Response builders: every API body is compact JSON with `Content-Type: application/json`, and
 * every answer says `X-Content-Type-Options: nosniff`, so a browser never
 * sniffs an API answer (a body, an error, a 303) into something it would render.
 *
 * The answers are srvx's FastResponse, the Response class of h3's own Node adapter: a Response to
 * every caller (app.request, instanceof Response, headers, json()), and on node:http its string
 * body goes to the socket as it is, without the web stream a native Response is read through.
 */
import { FastResponse } from 'srvx';

const NOSNIFF = { 'x-content-type-options': 'nosniff' } as const;

export function jsonResponse(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new FastResponse(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...NOSNIFF, ...headers } });
}

/** Contract part 8: the 303 shows only a Location header (the API headers are added later). */
export function seeOther(location: string): Response {
  return new FastResponse(null, { status: 303, headers: { location, ...NOSNIFF } });
}
