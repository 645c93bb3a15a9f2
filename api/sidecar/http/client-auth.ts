/**
 * Client authentication at the token endpoint (RFC 6749 §2.3.1): HTTP Basic (client_secret_basic)
 * or client_id + client_secret in the body (client_secret_post), never both (§2.3: one method per
 * request, else 400 invalid_request). Parameters with an empty value count as absent (§3.2).
 */
import { ApiError } from './errors.ts';
import { decodeComponent } from './form.ts';

const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;

/** The credentials the client presented; undefined when they are missing or unreadable (invalid_client). */
export function clientCredentials(authorization: string | null, params: ReadonlyMap<string, string>): { id: string; secret: string } | undefined {
  const id = params.get('client_id');
  const secret = params.get('client_secret');
  if (authorization === null) return id !== undefined && secret !== undefined ? { id, secret } : undefined;
  if (id !== undefined || secret !== undefined) throw new ApiError('invalid_request');
  return parseBasic(authorization);
}

/** RFC 6749 §2.3.1 + Appendix B: Base64, split at the first colon, each half form-url-decoded (oauth4webapi sends `-` as `%2D`). */
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
