/**
 * Response headers of the document: reusable `components.headers`, and which of them each
 * (operation, status) carries. Part 8 lists the headers on every API response.
 */
import { API_VERSION, RATE_LIMIT_WINDOW_SECONDS, ROUTES, type Route } from '../contract/index.ts';
import type { JsonSchema, Ref } from './json-schemas.ts';

const nonNegativeInteger = { type: 'integer', minimum: 0 };

/** Every header the document names is one the answer always carries. */
function header(description: string, schema: JsonSchema) {
  return { description, required: true, schema };
}
export type HeaderObject = ReturnType<typeof header>;

function allowName(methods: readonly string[]): string {
  return `Allow-${methods.join('-')}`;
}

export function headerComponents(): Record<string, HeaderObject> {
  const headers: Record<string, HeaderObject> = {
    'RateLimit-Limit': header('Requests allowed in the current window (draft-ietf-httpapi-ratelimit-headers-06).', nonNegativeInteger),
    'RateLimit-Remaining': header('Requests left in the current window.', nonNegativeInteger),
    'RateLimit-Reset': header('Seconds until the current window resets (a delay, not a timestamp).', nonNegativeInteger),
    'RateLimit-Policy': header(
      `The quota and its window in seconds, e.g. \`30;w=${RATE_LIMIT_WINDOW_SECONDS}\`.`,
      { type: 'string', pattern: '^\\d+;w=\\d+(\\s*,\\s*\\d+;w=\\d+)*$' },
    ),
    'X-API-Version': header('Major version of the API; the same as the version in the path.', { type: 'string', const: API_VERSION }),
    'Retry-After': header('Seconds to wait before the next request (RFC 9110 §10.2.3).', nonNegativeInteger),
    Location: header('The thanks page in the language of the sign-up.', { type: 'string', format: 'uri-reference' }),
    'WWW-Authenticate-Bearer': header(
      'Bearer challenge (RFC 6750 §3) with a resource_metadata pointer to the protected resource ' +
        'metadata (RFC 9728 §5.1); names the error when a token was presented.',
      { type: 'string', pattern: '^Bearer ' },
    ),
    // RFC 9110 §15.5.2: every 401 carries a challenge, also after client_secret_post.
    'WWW-Authenticate-Basic': header(
      'Basic challenge (RFC 7617) naming the realm of this environment\'s clients.',
      { type: 'string', pattern: '^Basic ' },
    ),
    'Cache-Control-NoStore': header(
      'Token endpoint answers are never cached (RFC 6749 §5.1).',
      { type: 'string', pattern: '(^|,)\\s*no-store\\s*(,|$)' },
    ),
    'Pragma-NoCache': header('The same for HTTP/1.0 caches (RFC 6749 §5.1).', { type: 'string', const: 'no-cache' }),
    Deprecation: header(
      'This operation is deprecated (RFC 9745): `@` followed by the Unix time of the deprecation.',
      { type: 'string', pattern: '^@-?\\d+$' },
    ),
    'Link-Successor': header(
      'Link to the successor operation, `rel="successor-version"` (RFC 5829).',
      { type: 'string', pattern: '^<[^>]+>\\s*;.*rel="?successor-version"?' },
    ),
  };
  for (const route of ROUTES) {
    headers[allowName(route.methods)] = header('The methods this resource accepts (RFC 9110 §10.2.1).', {
      type: 'string',
      const: route.methods.join(', '),
    });
  }
  return headers;
}

const ref = (name: string): Ref => ({ $ref: `#/components/headers/${name}` });

/** Part 8: on every answer. */
const ALWAYS = ['RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset', 'RateLimit-Policy', 'X-API-Version'];

/** The headers one response of one operation carries, by header name. */
export function responseHeaders(route: Route, status: number): Record<string, Ref> {
  const headers: Record<string, Ref> = Object.fromEntries(ALWAYS.map((name) => [name, ref(name)]));
  if (status === 429) headers['Retry-After'] = ref('Retry-After');
  if (status === 303) headers.Location = ref('Location');
  if (status === 405) headers.Allow = ref(allowName(route.methods));
  if (route.auth === 'bearer' && (status === 401 || status === 403)) {
    headers['WWW-Authenticate'] = ref('WWW-Authenticate-Bearer');
  }
  if (route.auth === 'client' && status === 401) headers['WWW-Authenticate'] = ref('WWW-Authenticate-Basic');
  // RFC 6749 §5.1 asks it of the 200; §5.2's example and good practice extend it to every answer.
  if (route.auth === 'client') {
    headers['Cache-Control'] = ref('Cache-Control-NoStore');
    headers.Pragma = ref('Pragma-NoCache');
  }
  // RFC 9745: every answer of a deprecated resource says so, errors included.
  if (route.deprecated) {
    headers.Deprecation = ref('Deprecation');
    headers.Link = ref('Link-Successor');
  }
  return headers;
}
