/**
 * Discovery documents, pure functions of a base URL: the RFC 9727 API catalog (an RFC 9264
 * linkset), RFC 8414 authorization-server metadata and RFC 9728 protected-resource metadata;
 * their choices are in docs/openapi.md, "Decisions".
 */
import { ENVIRONMENTS, SCOPES, TokenRequest, environmentUrls, type Environment } from '../contract/index.ts';
import { BRAND } from '../contract/brand.ts';

/** RFC 9727 §4.2: the catalog's media type, with the profile parameter it SHOULD carry. */
export const API_CATALOG_CONTENT_TYPE = 'application/linkset+json; profile="https://www.rfc-editor.org/info/rfc9727"';

/** What /openapi.json is served as: RFC 9727 §4.1 wants a link's type hint to match. */
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
 * RFC 8414 §2. `response_types_supported` is REQUIRED there, so it is the one empty list of any
 * document (docs/openapi.md). No `jwks_uri`: HS256 keys are never published.
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

/** RFC 9728 §2: one resource for an environment's /api/v1 tree, one for its MCP endpoint (docs/openapi.md). */
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
