/**
 * Client authentication at the token endpoint (RFC 6749 §2.3.1): HTTP Basic (client_secret_basic)
 * or client_id + client_secret in the body (client_secret_post), never both (§2.3: one method per
 * request). Parameters with an empty value count as absent (§3.2).
 */
import { decodeComponent } from './form.ts';

export type ClientAuthResult =
  | { ok: true; credentials: { id: string; secret: string } }
  | { ok: false; code: 'invalid_request' | 'invalid_client' };

const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;

export function clientCredentials(
  authorization: string | null,
  params: ReadonlyMap<string, string>,
): ClientAuthResult {
  const bodyId = params.get('client_id');
  const bodySecret = params.get('client_secret');
  if (authorization !== null) {
    if (bodyId !== undefined || bodySecret !== undefined) return { ok: false, code: 'invalid_request' };
    const basic = parseBasic(authorization);
    return basic ? { ok: true, credentials: basic } : { ok: false, code: 'invalid_client' };
  }
  if (bodyId !== undefined && bodySecret !== undefined) {
    return { ok: true, credentials: { id: bodyId, secret: bodySecret } };
  }
  return { ok: false, code: 'invalid_client' };
}

/**
 * RFC 6749 §2.3.1 + Appendix B: Base64-decode, split at the first colon, then form-url-decode
 * each half (strict clients such as oauth4webapi send `-` as `%2D`, space as `+`).
 */
function parseBasic(authorization: string): { id: string; secret: string } | undefined {
  const match = /^basic[ \t]+(\S+)[ \t]*$/i.exec(authorization);
  if (!match || !BASE64.test(match[1])) return undefined;
  const decoded = Buffer.from(match[1], 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon === -1) return undefined;
  const id = decodeComponent(decoded.slice(0, colon));
  const secret = decodeComponent(decoded.slice(colon + 1));
  if (!id || secret === undefined) return undefined;
  return { id, secret };
}
