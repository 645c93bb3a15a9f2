/** RFC 6750 §2.1: `Authorization: Bearer <b64token>`; the scheme name is case-insensitive (RFC 9110 §11.1). */

export type BearerCredentials = { kind: 'missing' } | { kind: 'malformed' } | { kind: 'token'; token: string };

const B64TOKEN = /^[A-Za-z0-9\-._~+/]+=*$/;

export function bearerCredentials(authorization: string | null): BearerCredentials {
  if (authorization === null) return { kind: 'missing' };
  const match = /^(\S+)(?:[ \t]+(.*))?$/.exec(authorization.trim());
  // RFC 6750 §3.1: another scheme (e.g. Basic) means no Bearer credentials at all.
  if (!match || match[1].toLowerCase() !== 'bearer') return { kind: 'missing' };
  const token = (match[2] ?? '').trim();
  return B64TOKEN.test(token) ? { kind: 'token', token } : { kind: 'malformed' };
}
