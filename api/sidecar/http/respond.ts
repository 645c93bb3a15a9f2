/**
 * Response builders: every API body is compact JSON with `Content-Type: application/json`, and
 * every answer says `X-Content-Type-Options: nosniff`, so a browser never
 * sniffs an API answer (a body, an error, a 303) into something it would render.
 *
 * The answers are srvx's FastResponse, the Response class of h3's own Node adapter: a Response to
 * every caller (app.request, instanceof Response, headers, json()), but on node:http its string
 * body and headers go to the socket as they are, without the web stream a native Response is read
 * through (docs/performance.md).
 */
import { FastResponse } from 'srvx';

const NOSNIFF = { 'x-content-type-options': 'nosniff' } as const;

/**
 * The header fields of each answer built here, as the plain object it was built with. A
 * FastResponse makes a Headers object from them only when someone reads `.headers`, and nobody
 * does before the API layer adds its fields (addHeaders), so on node:http they go from this
 * object to the socket without one (docs/performance.md). Tests read every answer's headers.
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
