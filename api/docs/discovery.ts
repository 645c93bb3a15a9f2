/**
 * Discovery documents, pure functions of a base URL: the RFC 9727 API catalog (an RFC 9264
 * linkset), RFC 8414 authorization-server metadata and RFC 9728 protected-resource metadata.
 * Values with zero elements are not emitted (RFC 8414 §3.2, RFC 9728 §3.2), with one exception:
 * `response_types_supported`, which RFC 8414 §2 makes REQUIRED (see authorizationServerMetadata).
 */
import { ENVIRONMENTS, SCOPES, TokenRequest, environmentUrls, type Environment } from '../contract/index.ts';
import { BRAND } from '../contract/brand.ts';

/** RFC 9727 §4.2: the catalog's media type, with the profile parameter it SHOULD carry. */
export const API_CATALOG_CONTENT_TYPE = 'application/linkset+json; profile="https://www.rfc-editor.org/info/rfc9727"';

/**
 * Media type of the OpenAPI document in links: what /openapi.json is served as (RFC 9727 §4.1 wants
 * the hint to match). The OAI media type would need a variant of its own for a hint only; plain
 * application/json is acceptable for the document (standards.md §11.1) and what every client accepts.
 */
export const OPENAPI_LINK_TYPE = 'application/json';

type Links = { href: string; type: string; title: string }[];
type LinkContext = {
  anchor: string;
  'service-desc': Links;
  'service-doc'?: Links;
  status?: Links;
  'service-meta': Links;
};

const ENV_TITLE: Record<Environment, string> = { production: 'Production', sandbox: 'Sandbox' };

/** RFC 9264 §4.2: the only top-level member is `linkset`; every relation's value is an array. */
export function apiCatalog(baseUrl: string): { linkset: LinkContext[] } {
  return { linkset: [...ENVIRONMENTS.map((env) => apiContext(baseUrl, env)), ...ENVIRONMENTS.map((env) => mcpContext(baseUrl, env))] };
}

function apiContext(baseUrl: string, env: Environment): LinkContext {
  const urls = environmentUrls(baseUrl, env);
  return {
    anchor: urls.resource,
    'service-desc': [{ href: urls.openapi, type: OPENAPI_LINK_TYPE, title: 'OpenAPI 3.1 description' }],
    'service-doc': [
      { href: urls.guide, type: 'text/html', title: 'API guide' },
      { href: urls.guideMarkdown, type: 'text/markdown', title: 'API guide (Markdown)' },
    ],
    status: [{ href: urls.status, type: 'application/json', title: `${ENV_TITLE[env]} status probe` }],
    'service-meta': [{ href: urls.protectedResourceMetadata, type: 'application/json', title: 'OAuth protected resource metadata (RFC 9728)' }],
  };
}

/** The MCP endpoint of an environment: described by the server card (SEP-2127), protected like the API. */
function mcpContext(baseUrl: string, env: Environment): LinkContext {
  const urls = environmentUrls(baseUrl, env);
  return {
    anchor: urls.mcp,
    'service-desc': [{ href: urls.mcpServerCard, type: 'application/json', title: 'MCP server card' }],
    'service-meta': [{ href: urls.mcpResourceMetadata, type: 'application/json', title: 'OAuth protected resource metadata (RFC 9728)' }],
  };
}

/**
 * RFC 8414 §2. `response_types_supported` is REQUIRED there, and parsers that hold the document to
 * §2 refuse it when the field is missing; response types belong to the authorization endpoint
 * (RFC 6749 §3.1.1), which this server does not have, so the true list is the empty one. That
 * gives up §3.2's "omit zero-element claims" for this one field, the lesser break: a client that
 * reads the field finds what it needs, one that ignores it loses nothing (docs/openapi.md).
 * No `jwks_uri`: HS256 keys are never published.
 */
export function authorizationServerMetadata(baseUrl: string, env: Environment) {
  const urls = environmentUrls(baseUrl, env);
  return {
    issuer: urls.issuer,
    token_endpoint: urls.token,
    response_types_supported: [],
    grant_types_supported: [TokenRequest.shape.grant_type.value],
    token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post'],
    scopes_supported: [...SCOPES],
    service_documentation: urls.guide,
    // RFC 9728 §4: the resources this issuer's tokens are meant for; a token request names one
    // with RFC 8707's `resource` (default: the API).
    protected_resources: [urls.resource, urls.mcp],
  };
}

/**
 * RFC 9728 §2. One resource identifier for the whole /api/v1 tree of an environment (it is also
 * the tokens' audience); see docs/openapi.md for the §3.3 exact-match discussion. The MCP endpoint
 * is a resource of its own: a token for one is refused by the other.
 */
export function protectedResourceMetadata(baseUrl: string, env: Environment, which: 'api' | 'mcp' = 'api') {
  const urls = environmentUrls(baseUrl, env);
  const name = `${BRAND.product} waitlist ${which === 'mcp' ? 'MCP server' : 'API'}`;
  return {
    resource: which === 'mcp' ? urls.mcp : urls.resource,
    authorization_servers: [urls.issuer],
    scopes_supported: [...SCOPES],
    // RFC 6750 §2.1 only: no form-body or query tokens.
    bearer_methods_supported: ['header'],
    resource_name: env === 'sandbox' ? `${name} (sandbox)` : name,
    resource_documentation: urls.guide,
  };
}
