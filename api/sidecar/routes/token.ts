/**
 * Operation 2: the token endpoint, RFC 6749 §4.4 (client credentials). Order of checks:
 * content type (400) -> size (413) -> parsing, repeated parameters (400) -> grant type (400) ->
 * client authentication (400 for two methods at once, else 401) -> scope (400) -> resource (400).
 */
import type { H3Event } from 'h3';
import { BODY_LIMIT_BYTES, SCOPES, TOKEN_TTL_SECONDS, type TokenResponse } from '../../contract/index.ts';
import { sandboxClients } from '../domain/clients.ts';
import { issueAccessToken } from '../domain/tokens.ts';
import { mediaTypeOf, readLimitedBody } from '../http/body.ts';
import { basicChallenge } from '../http/challenge.ts';
import { clientCredentials } from '../http/client-auth.ts';
import { ApiError } from '../http/errors.ts';
import { parseForm } from '../http/form.ts';
import { jsonResponse } from '../http/respond.ts';
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
  if (!client) throw new ApiError('invalid_client', { 'www-authenticate': basicChallenge(env) });

  const requested = params.get('scope');
  const granted = requested === undefined ? [...client.scopes] : [...new Set(requested.split(' ').filter(Boolean))];
  if (!granted.every((scope) => client.scopes.includes(scope))) throw new ApiError('invalid_scope');
  const scope = SCOPES.filter((known) => granted.includes(known)).join(' ');

  // RFC 8707 §2: the token's audience is the resource asked for (the API by default, or the MCP
  // endpoint); a resource this server does not protect is invalid_target.
  const audience = params.get('resource') ?? urls.resource;
  if (audience !== urls.resource && audience !== urls.mcp) throw new ApiError('invalid_target');
  const accessToken = await issueAccessToken(deps.keys[env], { issuer: urls.issuer, audience }, client.id, scope, deps.clock.now());
  const body: TokenResponse = { access_token: accessToken, token_type: 'Bearer', expires_in: TOKEN_TTL_SECONDS, scope };
  return jsonResponse(200, body);
}
