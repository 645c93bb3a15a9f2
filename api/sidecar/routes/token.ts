/**
 * Operation 2: the token endpoint, RFC 6749 §4.4 (client credentials). Order of checks:
 * content type (400) -> size (413) -> parsing, repeated parameters (400) -> grant type (400) ->
 * client authentication (400 for two methods at once, else 401) -> scope (400) -> resource (400).
 */
import type { H3Event } from 'h3';
import { BODY_LIMIT_BYTES, SCOPES, TOKEN_TTL_SECONDS, type TokenResponse } from '../../contract/index.ts';
import { sandboxClients } from '../domain/clients.ts';
import { issueAccessToken } from '../domain/tokens.ts';
import { decodeComponent, mediaTypeOf, parseForm, readLimitedBody } from '../http/body.ts';
import { realmOf } from '../http/bearer-auth.ts';
import { ApiError, jsonResponse } from '../http/respond.ts';
import type { RouteContext } from '../deps.ts';

export async function createToken(event: H3Event, { env, urls, deps }: RouteContext): Promise<Response> {
  if (mediaTypeOf(event.req.headers.get('content-type')) !== 'application/x-www-form-urlencoded') {
    throw new ApiError('invalid_request');
  }
  const form = parseForm(await readLimitedBody(event.req, BODY_LIMIT_BYTES));
  // RFC 6749 §3.2: a parameter sent without a value is treated as if it were omitted.
  const params = new Map([...form].filter(([, value]) => value !== ''));

  const grantType = params.get('grant_type');
  if (grantType === undefined) throw new ApiError('invalid_request');
  if (grantType !== 'client_credentials') throw new ApiError('unsupported_grant_type');

  const credentials = clientCredentials(event.req.headers.get('authorization'), params);
  const directory = env === 'sandbox' ? sandboxClients : deps.clients;
  const client = credentials && (await directory.authenticate(credentials.id, credentials.secret));
  // RFC 6749 §5.2 + RFC 9110 §15.5.2: every 401 of the token endpoint carries a Basic challenge.
  if (!client) throw new ApiError('invalid_client', { 'www-authenticate': `Basic realm="${realmOf(env)}", charset="UTF-8"` });

  const requested = params.get('scope');
  const granted = requested === undefined ? [...client.scopes] : [...new Set(requested.split(' ').filter(Boolean))];
  if (!granted.every((scope) => client.scopes.includes(scope))) throw new ApiError('invalid_scope');
  const scope = SCOPES.filter((known) => granted.includes(known)).join(' ');

  // RFC 8707 §2: the token's audience is the resource asked for (the API by default, or the MCP
  // endpoint); a resource this server does not protect is invalid_target.
  const audience = params.get('resource') ?? urls.resource;
  if (audience !== urls.resource && audience !== urls.mcp) throw new ApiError('invalid_target');
  const accessToken = await issueAccessToken(deps.keys[env], { issuer: urls.issuer, audience }, client.id, scope, deps.clock.now());
  return jsonResponse(200, { access_token: accessToken, token_type: 'Bearer', expires_in: TOKEN_TTL_SECONDS, scope } satisfies TokenResponse);
}

const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;

/**
 * The credentials the client presented (RFC 6749 §2.3.1): HTTP Basic (client_secret_basic) or
 * client_id + client_secret in the body (client_secret_post), never both (§2.3: one method per
 * request, else 400 invalid_request); undefined when they are missing or unreadable (invalid_client).
 */
function clientCredentials(authorization: string | null, params: ReadonlyMap<string, string>): { id: string; secret: string } | undefined {
  const id = params.get('client_id');
  const secret = params.get('client_secret');
  if (authorization === null) return id !== undefined && secret !== undefined ? { id, secret } : undefined;
  if (id !== undefined || secret !== undefined) throw new ApiError('invalid_request');
  // RFC 6749 §2.3.1 + Appendix B: Base64, split at the first colon, each half form-url-decoded (oauth4webapi sends `-` as `%2D`).
  const match = /^basic[ \t]+(\S+)[ \t]*$/i.exec(authorization);
  if (!match || !BASE64.test(match[1])) return undefined;
  const decoded = Buffer.from(match[1], 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon === -1) return undefined;
  const basicId = decodeComponent(decoded.slice(0, colon));
  const basicSecret = decodeComponent(decoded.slice(colon + 1));
  if (!basicId || basicSecret === undefined) return undefined;
  return { id: basicId, secret: basicSecret };
}
