/**
 * Generated hostile requests (the fuzz suite): fast-check arbitraries over every endpoint
 * of both environments, unknown API paths and a few pages, with hostile methods, targets, headers
 * and bodies. Two channels: `http` (node:http, well-formed, kept-alive connections) and `raw`
 * (bytes on a node:net socket, so framing and syntax Node's own client would refuse reach the
 * server too). Everything derives from the seed: the same seed gives the same requests.
 */
import fc from 'fast-check';
import { API_PATHS, BODY_LIMIT_BYTES, ENV_PREFIX, SANDBOX_CLIENT_ID, SANDBOX_CLIENT_SECRET, WaitlistSignup } from '../../api/contract/index.ts';
import { rawFlaw, type RawFlaw } from './raw-flaws.ts';

export interface FuzzRequest {
  channel: 'http' | 'raw';
  method: string;
  /** The request target exactly as sent. */
  target: string;
  headers: [string, string][];
  body: Uint8Array;
  /** http: Content-Length or chunked framing; raw: what is wrong with the bytes, if anything. */
  chunked: boolean;
  flaw?: RawFlaw;
}

/** Run-time values the generators may use: a valid sandbox access token. */
export interface FuzzContext {
  sandboxBearer: string;
}

const ENDPOINTS = Object.values(API_PATHS);
const UNKNOWN_API_PATHS = ['/api/v1/prices', '/api/v2/status', '/api/', '/api', '/api/v1/waitlist/stats/x', '/api/v1/oauth'];
const PAGES = ['/', '/de/', '/developers/', '/openapi.json', '/.well-known/api-catalog', '/nope', '/.env'];
/** POST three times over: most operations take it, and it carries the bodies. */
const METHODS = ['GET', 'HEAD', 'POST', 'POST', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS'];
/** Methods node:http's parser does not know among them (`get`, `FOO`, the long one): the front refuses those with its fixed 400. */
const ODD_METHODS = ['get', 'FOO', 'TRACE', 'PROPFIND', 'QUERY', 'M-SEARCH', 'CONNECT', 'X'.repeat(64)];
const FIELD_NAMES = [...Object.keys(WaitlistSignup.shape), '__proto__', 'constructor', 'prototype', 'grant_type', 'client_id', 'client_secret', 'scope', 'admin'];
const TYPES = ['application/json', 'application/x-www-form-urlencoded', 'application/json; charset=utf-8', 'APPLICATION/JSON', 'application/x-www-form-urlencoded;charset=latin1', 'text/plain', 'multipart/form-data; boundary=x', 'application/json;;;', '*/*', ''];

const token = fc.stringMatching(/^[A-Za-z][A-Za-z0-9!#$%&'*+.^_`|~-]{0,15}$/);
/** Header values Node's client accepts (no CR, LF or NUL), with some non-ASCII. */
const headerValue = fc.string({ maxLength: 40, unit: fc.constantFrom(...'abc XYZ 019 ,;=/@%"\'()<>\u00e9\u00ff\t'.split('')) });

function target(): fc.Arbitrary<string> {
  const base = fc.oneof(
    { weight: 6, arbitrary: fc.tuple(fc.constantFrom(...Object.values(ENV_PREFIX)), fc.constantFrom(...ENDPOINTS)).map(([prefix, path]) => prefix + path) },
    { weight: 1, arbitrary: fc.tuple(fc.constantFrom(...Object.values(ENV_PREFIX)), fc.constantFrom(...UNKNOWN_API_PATHS)).map(([prefix, path]) => prefix + path) },
    { weight: 1, arbitrary: fc.constantFrom(...PAGES) },
  );
  const twist = fc.oneof(
    { weight: 12, arbitrary: fc.constant((p: string) => p) },
    {
      weight: 10,
      arbitrary: fc.constantFrom<(path: string) => string>(
        (p) => `${p}/`,
        (p) => p.toUpperCase(),
        (p) => p.replace('/v1', '//v1'),
        (p) => p.replace('/v1/', '/v1/./'),
        (p) => p.replace('/v1/', '/v1/x/../'),
        (p) => p.replace('a', '%61'),
        (p) => p.replace('/', '/%2e%2e/'),
        (p) => `${p}%00`,
        (p) => `${p}/ada%2540example.com`,
        (p) => `${p}/${'a'.repeat(3000)}`,
      ),
    },
  );
  const query = fc.option(fc.constantFrom('?', '?a=1', '?email=ada@example.com', '?access_token=x', '?%zz', '?a=1&a=2', `?${'q'.repeat(2000)}`), { nil: '' });
  return fc.tuple(base, twist, query).map(([path, f, q]) => f(path) + q);
}

function jsonBody(): fc.Arbitrary<string> {
  const field = fc.tuple(fc.constantFrom(...FIELD_NAMES), fc.oneof(fc.string({ maxLength: 20 }), fc.boolean(), fc.integer(), fc.constant(null), fc.constantFrom('ada@example.com', 'on', 'developer', 'de', ''), fc.jsonValue({ maxDepth: 2 })));
  return fc.oneof(
    fc.array(field, { maxLength: 6 }).map((pairs) => `{${pairs.map(([k, v]) => `${JSON.stringify(k)}:${JSON.stringify(v) ?? 'null'}`).join(',')}}`),
    fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.stringify(v) ?? ''),
    fc.constantFrom('{"email":', '{"email":"ada@example.com","consent":true}', '[]', 'null', '{}', '{"a":1,"a":2}', '\ufeff{}', '{"consent":true,"email":"ADA@EXAMPLE.COM"}'),
  );
}

function formBody(): fc.Arbitrary<string> {
  const pair = fc.tuple(fc.oneof(fc.constantFrom(...FIELD_NAMES), fc.string({ maxLength: 8 })), fc.oneof(fc.constantFrom('ada%40example.com', 'on', 'true', 'client_credentials', SANDBOX_CLIENT_ID, 'waitlist:stats:read', '%zz', '+', ''), fc.string({ maxLength: 12 })));
  return fc.array(pair, { maxLength: 6 }).map((pairs) => pairs.map(([k, v]) => `${encodeURIComponent(k)}=${v}`).join('&'));
}

const encoder = new TextEncoder();

function body(): fc.Arbitrary<Uint8Array> {
  return fc.oneof(
    { weight: 4, arbitrary: fc.constant(new Uint8Array(0)) },
    { weight: 5, arbitrary: jsonBody().map((t) => encoder.encode(t)) },
    { weight: 5, arbitrary: formBody().map((t) => encoder.encode(t)) },
    { weight: 2, arbitrary: fc.uint8Array({ maxLength: 64 }) },
    // Over the 64 KB limit (contract part 8), the size that once poisoned the front's pool.
    { weight: 1, arbitrary: fc.constantFrom(BODY_LIMIT_BYTES + 1, 200_000).map((n) => new Uint8Array(n).fill(0x61)) },
  );
}

/** Mostly a type the endpoint takes, so that requests get past the first check to the handlers. */
const contentType = fc.option(
  fc.oneof({ weight: 3, arbitrary: fc.constantFrom('application/json', 'application/x-www-form-urlencoded') }, { weight: 1, arbitrary: fc.constantFrom(...TYPES) }),
  { nil: undefined, freq: 4 },
);

function headers(ctx: FuzzContext): fc.Arbitrary<[string, string][]> {
  const basic = `Basic ${Buffer.from(`${SANDBOX_CLIENT_ID}:${SANDBOX_CLIENT_SECRET}`).toString('base64')}`;
  const one = fc.oneof(
    fc.constantFrom(...TYPES).map((v): [string, string] => ['content-type', v]),
    fc.constantFrom(`Bearer ${ctx.sandboxBearer}`, basic, 'Bearer x.y.z', 'Basic !!!', 'Bearer', `Bearer ${'a'.repeat(4000)}`, 'Digest x').map((v): [string, string] => ['authorization', v]),
    fc.constantFrom('203.0.113.7', '2001:db8::1, 10.0.0.1', 'garbage', '::ffff:127.0.0.1', ', ,', '1.1.1.1'.repeat(50)).map((v): [string, string] => ['x-forwarded-for', v]),
    fc.constantFrom<[string, string]>(['accept', 'text/markdown'], ['accept', '*/*;q=x'], ['accept-encoding', 'br, gzip;q=0'], ['expect', '100-continue'], ['expect', 'the-unexpected'], ['origin', 'https://evil.example'], ['cookie', 'a=b'], ['range', 'bytes=0-1'], ['if-none-match', '*'], ['x-request-id', 'ada@example.com'], ['x-forwarded-proto', 'gopher'], ['forwarded', 'for=1.2.3.4']),
    fc.tuple(token, headerValue),
  );
  return fc
    .tuple(contentType, fc.array(one, { maxLength: 4 }))
    .map(([type, rest]) => (type === undefined ? rest : [['content-type', type] as [string, string], ...rest]));
}

export function fuzzRequest(ctx: FuzzContext): fc.Arbitrary<FuzzRequest> {
  const method = fc.oneof({ weight: 8, arbitrary: fc.constantFrom(...METHODS) }, { weight: 1, arbitrary: fc.constantFrom(...ODD_METHODS) });
  return fc
    .record({
      channel: fc.constantFrom<'http' | 'raw'>('http', 'http', 'raw'),
      method,
      target: target(),
      headers: headers(ctx),
      body: body(),
      chunked: fc.boolean(),
      flaw: fc.option(rawFlaw(), { nil: undefined, freq: 2 }),
    })
    // node:http's own parser trips over an early answer to a HEAD that is still uploading; raw covers that case.
    // node:http sends every method in capitals, and its client opens a tunnel for CONNECT: raw covers that too.
    .map((r) => (r.channel === 'http' ? { ...r, flaw: undefined, method: r.method === 'CONNECT' ? 'PROPFIND' : r.method.toUpperCase(), body: r.method === 'HEAD' ? new Uint8Array(0) : r.body } : r));
}
