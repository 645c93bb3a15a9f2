/** Request builders for the API tests; every request still goes through `send` (test/support/request.ts). */
import { send, type ApiResult, type Requestable } from '../../support/request.ts';
import { ENV_PREFIX, type Environment } from '../../../api/contract/index.ts';

export const FORM = 'application/x-www-form-urlencoded';

export function jsonPost(body: unknown, headers: Record<string, string> = {}): RequestInit {
  return {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  };
}

export function formPost(body: string | Record<string, string>, headers: Record<string, string> = {}): RequestInit {
  return {
    method: 'POST',
    headers: { 'content-type': FORM, ...headers },
    body: typeof body === 'string' ? body : new URLSearchParams(body).toString(),
  };
}

/**
 * RFC 6749 §2.3.1 as oauth4webapi does it: each half form-url-encoded, and `-_.!~*'()` escaped
 * too (standards.md 1.2), then Base64.
 */
export function strictBasic(id: string, secret: string): string {
  const encode = (value: string) =>
    encodeURIComponent(value)
      .replace(/[-_.!~*'()]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)
      .replace(/%20/g, '+');
  return `Basic ${Buffer.from(`${encode(id)}:${encode(secret)}`).toString('base64')}`;
}

/** What `curl -u id:secret` sends: no form-encoding. */
export function plainBasic(id: string, secret: string): string {
  return `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`;
}

export function envPath(env: Environment, path: string): string {
  return `${ENV_PREFIX[env]}${path}`;
}

/** A client address handed over by the front (X-Forwarded-For, see http/client-address.ts). */
export function from(address: string): Record<string, string> {
  return { 'x-forwarded-for': address };
}

export async function issueToken(
  app: Requestable,
  env: Environment,
  id: string,
  secret: string,
  extra: Record<string, string> = {},
): Promise<ApiResult> {
  return send(app, envPath(env, '/api/v1/oauth/token'), formPost({ grant_type: 'client_credentials', client_id: id, client_secret: secret, ...extra }));
}

/** The header fields of an answer that do not depend on the rate-limit count. */
export function stableHeaders(headers: Headers): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of headers) if (name !== 'ratelimit-remaining' && name !== 'date') out[name] = value;
  return out;
}
