/**
 * The request target and its authority, checked before any lookup: the Host field (RFC 9112
 * §3.2), the absolute-form (§3.2.2), and the path of a site file. Files are only ever looked up
 * in the in-memory table built from dist/, so the path checks are defence in depth and a way to
 * answer nonsense early.
 */
import type http from 'node:http';

/** RFC 3986 §3.2.2 host (IP-literal, IPv4 or reg-name, percent-encoding allowed) and §3.2.3 port; empty is allowed (RFC 9112 §3.2). */
const HOST = /^(?:\[[0-9A-Za-z:.]+\]|[A-Za-z0-9._~!$&'()*+,;=%-]*)(?::[0-9]*)?$/;
/** absolute-URI (RFC 3986 §4.3) of a hierarchical scheme: scheme, authority, path, query. */
const ABSOLUTE = /^([A-Za-z][A-Za-z0-9+.-]*):\/\/([^/?#]*)(\/[^?#]*)?(\?[^#]*)?$/;
/** RFC 3986 §3.2.2 host (not empty) and §3.2.3 port; no userinfo. */
const AUTHORITY = /^(?:\[[0-9A-Za-z:.]+\]|[A-Za-z0-9._~!$&'()*+,;=%-]+)(?::[0-9]*)?$/;

/**
 * RFC 9112 §3.2: an HTTP/1.1 request has exactly one Host field, and its value is
 * `uri-host [":" port]`; otherwise the server MUST answer 400. node:http's own check answers a
 * bare 400 and lets two Host lines through, so its check is off (server.ts) and this one is used.
 */
export function hostFieldValid(req: http.IncomingMessage): boolean {
  let count = 0;
  const raw = req.rawHeaders;
  for (let i = 0; i < raw.length; i += 2) {
    if (raw[i].length === 4 && raw[i].toLowerCase() === 'host' && (++count > 1 || !HOST.test(raw[i + 1]))) return false;
  }
  // HTTP/1.0 predates Host: only HTTP/1.1 must send it.
  return count === 1 || (count === 0 && !(req.httpVersionMajor === 1 && req.httpVersionMinor === 1));
}

/**
 * RFC 9112 §3.2.2: a server MUST accept the absolute-form (`GET http://host/api/v1/status`) and
 * use its authority instead of Host. The front answers it as the origin-form it names: the path
 * and query become `req.url`, the authority becomes Host (also for the sidecar). False for a
 * target to refuse: neither form, a scheme other than http or https (the front is no proxy),
 * userinfo (RFC 9110 §4.2.4), an empty host (RFC 9110 §4.2.1) or a fragment.
 */
export function adoptAbsoluteForm(req: http.IncomingMessage): boolean {
  const match = ABSOLUTE.exec(req.url ?? '');
  if (!match) return false;
  const [, scheme, authority, path, query] = match;
  req.url = `${path || '/'}${query ?? ''}`;
  if (!/^https?$/i.test(scheme!) || !AUTHORITY.test(authority!)) return false;
  // A missing, repeated or malformed Host field is left for hostFieldValid to refuse.
  if (!hostFieldValid(req)) return true;
  const raw = req.rawHeaders;
  const at = raw.findIndex((name, i) => i % 2 === 0 && name.toLowerCase() === 'host');
  if (at === -1) raw.push('Host', authority!);
  else raw[at + 1] = authority!;
  req.headers.host = authority;
  return true;
}

export type ParsedTarget =
  | { ok: true; path: string; query: string }
  | { ok: false; reason: 'malformed' | 'dotfile' };

/**
 * Splits `path?query`, decodes percent-encoding exactly once and rejects what could address
 * something outside the site or something other than what it appears to be:
 * - not origin-form (RFC 9112 §3.2.1), undecodable escapes, NUL or other control characters;
 * - backslashes, encoded slashes (`%2F`), empty, `.` and `..` segments, raw or encoded;
 * - dotfiles and dot-directories, except under /.well-known/ (RFC 8615).
 */
export function parseTarget(target: string): ParsedTarget {
  if (!target.startsWith('/')) return { ok: false, reason: 'malformed' };
  const q = target.indexOf('?');
  const raw = q === -1 ? target : target.slice(0, q);
  const query = q === -1 ? '' : target.slice(q);
  if (/%2f|%5c/i.test(raw)) return { ok: false, reason: 'malformed' };
  let path: string;
  try {
    path = decodeURIComponent(raw);
  } catch {
    return { ok: false, reason: 'malformed' };
  }
  if (/[\u0000-\u001f\u007f\\]/.test(path)) return { ok: false, reason: 'malformed' };
  const segments = path.split('/').slice(1);
  for (let i = 0; i < segments.length; i++) {
    const segment = segments[i];
    if ((segment === '' && i < segments.length - 1) || segment === '.' || segment === '..') return { ok: false, reason: 'malformed' };
    if (segment.startsWith('.') && !(i === 0 && segment === '.well-known')) return { ok: false, reason: 'dotfile' };
  }
  return { ok: true, path, query };
}

/**
 * RFC 3986 §6.2.2.2: a percent-encoded unreserved character (ALPHA, DIGIT, `-._~`) is the same as
 * the character itself, so `/s%61ndbox/api/…` is `/sandbox/api/…`. Everything else stays encoded.
 */
export function decodeUnreserved(target: string): string {
  if (!target.includes('%')) return target;
  return target.replace(/%([0-9A-Fa-f]{2})/g, (escape, hex: string) => {
    const char = String.fromCharCode(parseInt(hex, 16));
    return /[A-Za-z0-9._~-]/.test(char) ? char : escape;
  });
}
