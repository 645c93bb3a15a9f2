/**
 * The request target, checked before any lookup. Files are only ever looked up in the in-memory
 * table built from dist/, so this is defence in depth and a way to answer nonsense early.
 */

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
  // Fast path for the common case: nothing to decode, no segment starting with a dot.
  if (/^(\/[A-Za-z0-9_~-][A-Za-z0-9._~-]*)*\/?$/.test(raw)) {
    return { ok: true, path: raw, query };
  }
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
    const last = i === segments.length - 1;
    if (segment === '' && !last) return { ok: false, reason: 'malformed' };
    if (segment === '.' || segment === '..') return { ok: false, reason: 'malformed' };
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
