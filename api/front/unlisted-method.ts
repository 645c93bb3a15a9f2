/**
 * Methods HTTP's parser in Node (llhttp, in the front and in the sidecar alike) does not know:
 * any token is a method (RFC 9110 §9.1), but llhttp refuses every one outside its fixed list
 * (http.METHODS), before a handler runs. The front reads such a request itself (parser-refusal.ts)
 * and answers it as it answers any other method: a page as pages do, an API path as the sidecar
 * does. The sidecar cannot be sent the method, so it is sent STAND_IN, a method from llhttp's list
 * that no route of the contract takes: the sidecar answers every method its route does not take
 * alike (405 with the route's Allow, 404 off the route table, 429 when over the limit, counted
 * like any request). CONNECT, which node:http hands over as a tunnel and undici will only open as
 * one, goes the same way.
 */
import http from 'node:http';

export const STAND_IN = 'UNLINK';

const FORWARDABLE = new Set(http.METHODS.filter((method) => method !== 'CONNECT'));

/** The method the sidecar is sent for a request with this method. */
export function forwardedMethod(method: string | undefined): string {
  return method !== undefined && FORWARDABLE.has(method) ? method : STAND_IN;
}

/** RFC 9110 §5.6.2: a method is a token. */
export function isMethodToken(method: string): boolean {
  return /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(method);
}
