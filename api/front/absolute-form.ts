/**
 * RFC 9112 §3.2.2: a server MUST accept the absolute-form of the request target
 * (`GET http://host:port/api/v1/status HTTP/1.1`), and it then uses the target's authority
 * instead of the Host field. The front answers it as the origin-form it names: the path and query
 * become the target, the authority becomes Host (also for the sidecar). What it refuses, as the
 * path it names (400 in the API's shape on an API path): a scheme other than http or https
 * (the front is no proxy), an empty host (RFC 9110 §4.2.1), userinfo (RFC 9110 §4.2.4), a
 * fragment (not part of absolute-URI). The Host field itself is still checked as RFC 9112 §3.2
 * says (host-field.ts): present once in HTTP/1.1, and well-formed.
 */
import type http from 'node:http';
import { hostFieldValid } from './host-field.ts';

/** absolute-URI (RFC 3986 §4.3) of a hierarchical scheme: scheme, authority, path, query. */
const ABSOLUTE = /^([A-Za-z][A-Za-z0-9+.-]*):\/\/([^/?#]*)(\/[^?#]*)?(\?[^#]*)?$/;
/** RFC 3986 §3.2.2 host (not empty) and §3.2.3 port; no userinfo. */
const AUTHORITY = /^(?:\[[0-9A-Za-z:.]+\]|[A-Za-z0-9._~!$&'()*+,;=%-]+)(?::[0-9]*)?$/;

/**
 * Turns an absolute-form target into its origin-form in place. False when the target is neither
 * form or the absolute-form is one to refuse; `req.url` is then the path it names, when it names one.
 */
export function adoptAbsoluteForm(req: http.IncomingMessage): boolean {
  const match = ABSOLUTE.exec(req.url ?? '');
  if (!match) return false;
  const [, scheme, authority, path, query] = match;
  req.url = `${path || '/'}${query ?? ''}`;
  if (!/^https?$/i.test(scheme!) || !AUTHORITY.test(authority!)) return false;
  // A missing, repeated or malformed Host field is left for the Host check to refuse.
  if (hostFieldValid(req)) replaceHost(req, authority!);
  return true;
}

function replaceHost(req: http.IncomingMessage, authority: string): void {
  const raw = req.rawHeaders;
  let found = false;
  for (let i = 0; i < raw.length; i += 2) {
    if (raw[i]!.length === 4 && raw[i]!.toLowerCase() === 'host') {
      raw[i + 1] = authority;
      found = true;
    }
  }
  if (!found) raw.push('Host', authority);
  req.headers.host = authority;
}
