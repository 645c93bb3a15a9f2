/**
 * Part 4: the route table. The sidecar mounts exactly these operations (under production and
 * sandbox prefixes), and the OpenAPI document is generated from the same table. Paths are relative
 * to an environment's prefix ('' or '/sandbox'). What a route's answers carry besides their body
 * (the shape of its errors, its header fields) is decided by its row, as the document promises.
 */
import type { z } from 'zod';
import type { Environment } from './enums.ts';
import { API_PATHS, ENV_PREFIX, MCP_PATH, splitEnvironment } from './paths.ts';
import {
  Accepted,
  ApiIndex,
  Status,
  TokenRequest,
  TokenResponse,
  WaitlistSignupForm,
  WaitlistSignupJson,
  WaitlistStats,
} from './schemas.ts';
import type { RateLimitPolicy } from './limits.ts';

export type Method = 'GET' | 'HEAD' | 'POST';
export type MediaType = 'application/json' | 'application/x-www-form-urlencoded';

export interface Route {
  /** OpenAPI operationId. */
  id: string;
  path: string;
  methods: readonly Method[];
  auth: 'none' | 'client' | 'bearer';
  tag: 'Status' | 'Waitlist' | 'OAuth' | 'Statistics' | 'Discovery' | 'MCP';
  summary: string;
  description: string;
  /**
   * Request body media types and the body as a client sends it: `schema`, or for a media type whose
   * body has another shape (a form's text values), `perType[type]`.
   */
  request?: { mediaTypes: readonly MediaType[]; schema: z.ZodType; perType?: Partial<Record<MediaType, z.ZodType>> };
  /** Success statuses with their body schema (303 has none). */
  success: Partial<Record<200 | 303, z.ZodType | null>>;
  /** Every status the operation may answer (part 4's table). */
  statuses: readonly number[];
  /** `at`: when it was deprecated, in Unix seconds (its Deprecation header, RFC 9745). */
  deprecated?: { successor: string; at: number };
  /** Part 8: which policy counts a production call (every sandbox call counts as 'relaxed'). */
  rateLimit: RateLimitPolicy;
}

const waitlistBase = {
  methods: ['POST'],
  auth: 'none',
  tag: 'Waitlist',
  request: {
    mediaTypes: ['application/json', 'application/x-www-form-urlencoded'],
    schema: WaitlistSignupJson,
    perType: { 'application/x-www-form-urlencoded': WaitlistSignupForm },
  },
  success: { 200: Accepted, 303: null },
  statuses: [200, 303, 400, 405, 413, 415, 422, 429, 500],
  rateLimit: 'standard',
} as const satisfies Omit<Route, 'id' | 'path' | 'summary' | 'description'>;

export const ROUTES = [
  {
    id: 'getStatus',
    path: API_PATHS.status,
    methods: ['GET', 'HEAD'],
    auth: 'none',
    tag: 'Status',
    summary: 'Status probe',
    description: 'Zero-auth probe: answers 200 while the service is up, with links to the documentation.',
    success: { 200: Status },
    statuses: [200, 405, 429, 500],
    rateLimit: 'relaxed',
  },
  {
    id: 'createToken',
    path: API_PATHS.token,
    methods: ['POST'],
    auth: 'client',
    tag: 'OAuth',
    summary: 'Issue an access token',
    description:
      'OAuth 2.0 client-credentials grant (RFC 6749 section 4.4). Authenticate with HTTP Basic ' +
      '(client_secret_basic) or with client_id and client_secret in the body (client_secret_post). ' +
      'The access token is an HS256 JWT valid for 900 seconds.',
    request: { mediaTypes: ['application/x-www-form-urlencoded'], schema: TokenRequest },
    success: { 200: TokenResponse },
    statuses: [200, 400, 401, 405, 413, 429, 500],
    rateLimit: 'standard',
  },
  {
    ...waitlistBase,
    id: 'joinWaitlist',
    path: API_PATHS.waitlist,
    summary: 'Join the waitlist',
    description:
      'Adds an address to the early-access waitlist, or updates it when it is already there. ' +
      'New, repeated and discarded sign-ups get the same answer. A form-encoded submission is ' +
      'answered with 303 to the thanks page.',
  },
  {
    id: 'getWaitlistStats',
    path: API_PATHS.stats,
    methods: ['GET', 'HEAD'],
    auth: 'bearer',
    tag: 'Statistics',
    summary: 'Waitlist statistics',
    description: 'Aggregate counts of the waitlist, no personal data. Needs a token with scope waitlist:stats:read.',
    success: { 200: WaitlistStats },
    statuses: [200, 401, 403, 405, 429, 500],
    rateLimit: 'standard',
  },
  {
    ...waitlistBase,
    id: 'joinWaitlistLegacy',
    path: API_PATHS.waitlistLegacy,
    summary: 'Join the waitlist (deprecated alias)',
    description: 'Deprecated unversioned alias of POST /api/v1/waitlist; keeps working. Use /api/v1/waitlist.',
    deprecated: { successor: API_PATHS.waitlist, at: Date.UTC(2026, 0, 1) / 1000 },
  },
  {
    id: 'getApiIndex',
    path: API_PATHS.index,
    methods: ['GET', 'HEAD'],
    auth: 'none',
    tag: 'Discovery',
    summary: 'API index',
    description: 'Zero-auth index of this base path: absolute links to every operation and discovery document.',
    success: { 200: ApiIndex },
    statuses: [200, 405, 429, 500],
    rateLimit: 'standard',
  },
] as const satisfies readonly Route[];

/**
 * The MCP endpoint: mounted in both environments beside ROUTES, with the same layer (rate limits,
 * headers, 405), but not an operation of the OpenAPI document: its body is MCP's JSON-RPC, and its
 * tools call the operations above. Production counts it as 'standard' (rateLimitPolicy).
 */
export const MCP_ROUTE = {
  id: 'mcp',
  path: MCP_PATH,
  methods: ['POST'],
  auth: 'bearer',
  tag: 'MCP',
  summary: 'MCP server',
  description: 'Model Context Protocol over Streamable HTTP: the status, sign-up and statistics as tools.',
  success: {},
  statuses: [200, 202, 400, 401, 403, 405, 406, 413, 415, 429, 500],
  rateLimit: 'standard',
} as const satisfies Route;

export type RouteId = (typeof ROUTES)[number]['id'] | typeof MCP_ROUTE.id;

/** The schema of a route's request body in one media type, as the OpenAPI document shows it. */
export function requestSchema(route: Route, type: MediaType): z.ZodType {
  if (!route.request) throw new Error(`${route.id} takes no request body`);
  return route.request.perType?.[type] ?? route.request.schema;
}

export function routeById(id: RouteId): Route {
  return [...ROUTES, MCP_ROUTE].find((r) => r.id === id)!;
}

/**
 * Part 8: the policy that counts a request to `path` (environment prefix included): every sandbox
 * call is 'relaxed'; a production call counts as its operation says (the status probe's GET/HEAD
 * are 'relaxed'); anything else (an unknown path or method) is 'standard'.
 */
export function rateLimitPolicy(path: string, method: string): RateLimitPolicy {
  if (splitEnvironment(path).env === 'sandbox') return 'relaxed';
  const route = ROUTES.find((r) => r.path === path);
  return route && (route.methods as readonly string[]).includes(method) ? route.rateLimit : 'standard';
}

/** Contract part 7: the token endpoint's 400 and 401 bodies follow RFC 6749 §5.2; every other route's the API's. */
export function errorStyleOf(route: Route): 'api' | 'oauth' {
  return route.auth === 'client' ? 'oauth' : 'api';
}

/** Lower-case names, as the sidecar's answers take them. */
export function routeHeaders(route: Route, env: Environment): Record<string, string> {
  if (route.auth === 'client') {
    // RFC 6749 §5.1: answers carrying tokens must not be cached; the same for its errors (§5.2 example).
    return { 'cache-control': 'no-store', pragma: 'no-cache' };
  }
  // An answer that depends on the caller's token is for that caller alone: no cache keeps it.
  if (route.auth === 'bearer') return { 'cache-control': 'no-store' };
  if (route.deprecated) {
    return {
      // RFC 9745 §2.1: an RFC 9651 Date, i.e. "@" and Unix seconds.
      deprecation: `@${route.deprecated.at}`,
      link: `<${ENV_PREFIX[env]}${route.deprecated.successor}>; rel="successor-version"`,
    };
  }
  return {};
}
