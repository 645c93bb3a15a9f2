/**
 * Public paths of the service (relative to the base URL). The site, the sidecar, the discovery
 * documents and the tests import these; nobody retypes them.
 */
import type { Environment, Lang } from './enums.ts';

/** Prefix of an environment's API tree: '' for production, '/sandbox' for the sandbox. */
export const ENV_PREFIX: Record<Environment, string> = { production: '', sandbox: '/sandbox' };

/** The environment a request path addresses, and the path within that environment's tree. */
export function splitEnvironment(path: string): { env: Environment; path: string } {
  const sandbox = path === ENV_PREFIX.sandbox || path.startsWith(`${ENV_PREFIX.sandbox}/`);
  return sandbox ? { env: 'sandbox', path: path.slice(ENV_PREFIX.sandbox.length) } : { env: 'production', path };
}

export const API_PATHS = {
  index: '/api/v1',
  status: '/api/v1/status',
  token: '/api/v1/oauth/token',
  waitlist: '/api/v1/waitlist',
  stats: '/api/v1/waitlist/stats',
  /** Part 4, operation 5: deprecated unversioned alias of the waitlist. */
  waitlistLegacy: '/api/waitlist',
} as const;

/** The MCP endpoint (Streamable HTTP): one more way to the same sign-up, status and statistics. */
export const MCP_PATH = '/api/mcp';
/** The MCP revisions the endpoint serves: 2026-07-28 (per-request envelope) and 2025-11-25 (initialize). */
export const MCP_PROTOCOL_VERSIONS = ['2026-07-28', '2025-11-25'] as const;

/** Part 4, rule 3: where a form-encoded sign-up is redirected (303), by language. */
export const THANKS_PATHS: Record<Lang, string> = { en: '/thanks/', de: '/de/danke/' };

/** Pages the API points to. */
export const PAGE_PATHS = {
  home: { en: '/', de: '/de/' },
  thanks: THANKS_PATHS,
  privacy: { en: '/privacy/', de: '/de/datenschutz/' },
  imprint: { en: '/imprint/', de: '/de/impressum/' },
  /** The API guide: sandbox first, then the token flow. The status probe's `docs` points here. */
  guide: { en: '/developers/', de: '/de/entwickler/' },
  /** The API reference, prebuilt from the OpenAPI document. */
  reference: { en: '/developers/reference/', de: '/de/entwickler/referenz/' },
} as const satisfies Record<string, Record<Lang, string>>;

/** Discovery documents (parts 1 and 5). */
export const DISCOVERY_PATHS = {
  openapi: '/openapi.json',
  openapiMarkdown: '/openapi.json.md',
  apiCatalog: '/.well-known/api-catalog',
  llms: '/llms.txt',
  sitemap: '/sitemap.xml',
  robots: '/robots.txt',
  securityTxt: '/.well-known/security.txt',
  /** SEP-2127 MCP server card. */
  mcpServerCard: '/.well-known/mcp/server-card.json',
  /** Agent Skills discovery index (v0.2.0) and its one skill. */
  agentSkills: '/.well-known/agent-skills/index.json',
  skill: '/.well-known/agent-skills/join-waitlist/SKILL.md',
} as const;

/** RFC 8414 §3: the well-known string is inserted between host and the issuer's path. */
export function authorizationServerMetadataPath(env: Environment): string {
  return `/.well-known/oauth-authorization-server${ENV_PREFIX[env]}`;
}

/** RFC 9728 §3: the well-known string is inserted between host and the resource's path. */
export function protectedResourceMetadataPath(env: Environment, resourcePath: string = API_PATHS.index): string {
  return `/.well-known/oauth-protected-resource${ENV_PREFIX[env]}${resourcePath}`;
}

/** Markdown twin address of a page: `/thanks/` -> `/thanks.md`, `/` -> `/index.md`, `/de/` -> `/de.md`. */
export function twinPath(pagePath: string): string {
  if (pagePath === '/') return '/index.md';
  return `${pagePath.replace(/\/$/, '')}.md`;
}

/**
 * The canonical URL path of a Markdown twin (inverse of twinPath, and also for documents such as
 * `/openapi.json.md` -> `/openapi.json`). Returns undefined for a path that is not a twin.
 */
export function canonicalOfTwin(mdPath: string): string | undefined {
  if (!mdPath.endsWith('.md')) return undefined;
  const stem = mdPath.slice(0, -'.md'.length);
  if (stem === '/index') return '/';
  if (/\.[a-z0-9]+$/i.test(stem.split('/').pop() ?? '')) return stem;
  return `${stem}/`;
}

/** Absolute URLs of one environment, derived from the base URL (no trailing slash). */
export function environmentUrls(baseUrl: string, env: Environment) {
  const base = baseUrl.replace(/\/$/, '');
  const prefix = `${base}${ENV_PREFIX[env]}`;
  const under = <K extends string>(root: string, paths: Record<K, string>) =>
    Object.fromEntries(Object.entries(paths).map(([name, path]) => [name, `${root}${path}`])) as Record<K, string>;
  return {
    /** OAuth issuer identifier (RFC 8414): the base URL, or base + /sandbox. */
    issuer: prefix,
    /** Protected resource identifier (RFC 9728) and JWT audience. */
    resource: `${prefix}${API_PATHS.index}`,
    /** The API's operations, under the environment's prefix. */
    ...under(prefix, API_PATHS),
    /** The discovery documents: one set for both environments. */
    ...under(base, DISCOVERY_PATHS),
    /** The MCP endpoint, also its protected resource identifier and its tokens' audience (RFC 8707). */
    mcp: `${prefix}${MCP_PATH}`,
    mcpResourceMetadata: `${base}${protectedResourceMetadataPath(env, MCP_PATH)}`,
    authorizationServerMetadata: `${base}${authorizationServerMetadataPath(env)}`,
    protectedResourceMetadata: `${base}${protectedResourceMetadataPath(env)}`,
    guide: `${base}${PAGE_PATHS.guide.en}`,
    guideMarkdown: `${base}${twinPath(PAGE_PATHS.guide.en)}`,
    reference: `${base}${PAGE_PATHS.reference.en}`,
  };
}
export type EnvironmentUrls = ReturnType<typeof environmentUrls>;
