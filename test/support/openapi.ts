/**
 * Holds API responses to the OpenAPI document: Ajv (JSON Schema 2020-12, with ajv-formats) over
 * the generated document's component schemas and response headers. `send()` in request.ts runs
 * `assertMatchesDocument` on every answer, so no API test can skip it.
 */
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import ajvFormats from 'ajv-formats';
import { ENV_PREFIX, ERROR_STATUS, routeById, type ErrorCode, type RouteId } from '../../api/contract/index.ts';
import { errorCodesFor } from '../../api/docs/error-codes.ts';
import { buildOpenApiDocument } from '../../api/docs/openapi.ts';
import type { HeaderObject } from '../../api/docs/headers.ts';
import type { JsonSchema, Ref } from '../../api/docs/json-schemas.ts';
import type { OpenApiDocument } from '../../api/docs/openapi.ts';
import type { OperationObject, ResponseObject } from '../../api/docs/operations.ts';

/** The document's URLs do not take part in validation; any base gives the same schemas. */
export const openApiDocument: OpenApiDocument = buildOpenApiDocument('https://waitlist.test');

const DOC_ID = 'https://waitlist.test/openapi.json';

export function createAjv(doc: OpenApiDocument = openApiDocument): Ajv2020 {
  const ajv = new Ajv2020({ allErrors: true, strict: true });
  // ajv-formats is CommonJS: its plugin is `default` under NodeNext's interop.
  ajvFormats.default(ajv);
  // ajv-formats has no idn-email (RFC 6531); in the document it is an annotation, and the
  // EmailAddress schema's patterns carry the rule the server applies.
  ajv.addFormat('idn-email', true);
  // The component schemas live under `components`; refs between them resolve inside this wrapper.
  ajv.addKeyword('components');
  ajv.addSchema({ $id: DOC_ID, components: { schemas: doc.components.schemas } });
  return ajv;
}

type SchemaCheck = (schema: JsonSchema, value: unknown) => string[];
const checkers = new WeakMap<OpenApiDocument, SchemaCheck>();

/** A schema checker bound to one document (its components), compiled once per schema. */
function checkerFor(doc: OpenApiDocument): SchemaCheck {
  const known = checkers.get(doc);
  if (known) return known;
  const ajv = createAjv(doc);
  const compiled = new Map<string, ValidateFunction>();
  const check: SchemaCheck = (schema, value) => {
    const key = JSON.stringify(schema);
    let validate = compiled.get(key);
    if (validate === undefined) {
      validate = ajv.compile(typeof schema.$ref === 'string' ? { $ref: `${DOC_ID}${schema.$ref}` } : schema);
      compiled.set(key, validate);
    }
    if (validate(value)) return [];
    return (validate.errors ?? []).map((e) => `${e.instancePath || '(root)'} ${e.message ?? e.keyword} ${JSON.stringify(e.params)}`);
  };
  checkers.set(doc, check);
  return check;
}

/** Validates `value` against a schema of the document (a `$ref` into components or an inline schema). */
export function schemaErrors(schema: JsonSchema, value: unknown, doc: OpenApiDocument = openApiDocument): string[] {
  return checkerFor(doc)(schema, value);
}

export interface ObservedResponse {
  method: string;
  path: string;
  status: number;
  headers: Headers;
  body: unknown;
  text: string;
}

/** The API tree: `/api/...` of either environment. The rest of the site is not described here. */
export function apiPathOf(path: string): string | undefined {
  const pathname = new URL(path, 'http://x').pathname;
  const stripped = pathname.startsWith(`${ENV_PREFIX.sandbox}/api`) ? pathname.slice(ENV_PREFIX.sandbox.length) : pathname;
  return stripped === '/api' || stripped.startsWith('/api/') ? stripped : undefined;
}

function resolveHeader(doc: OpenApiDocument, header: HeaderObject | Ref): HeaderObject {
  if (!('$ref' in header)) return header;
  const found = doc.components.headers[header.$ref.replace('#/components/headers/', '')];
  if (!found) throw new Error(`unresolved header ${header.$ref}`);
  return found;
}

/** Header values are text; integer headers must be plain digits (RFC 9110 delay-seconds style). */
function headerValue(schema: JsonSchema, raw: string): unknown {
  return schema.type === 'integer' && /^\d+$/.test(raw) ? Number(raw) : raw;
}

function headerViolations(doc: OpenApiDocument, headers: Record<string, HeaderObject | Ref>, actual: Headers): string[] {
  const out: string[] = [];
  for (const [name, raw] of Object.entries(headers)) {
    const header = resolveHeader(doc, raw);
    const value = actual.get(name);
    if (value === null) {
      if (header.required) out.push(`missing header ${name}`);
      continue;
    }
    for (const error of schemaErrors(header.schema, headerValue(header.schema, value), doc)) out.push(`header ${name}: ${value}: ${error}`);
  }
  return out;
}

/** Headers that every documented response carries (part 8): the ones an unknown path's 404 needs too. */
function commonHeaders(doc: OpenApiDocument): Record<string, HeaderObject | Ref> {
  const responses = Object.values(doc.paths).flatMap((item) => Object.values(item).flatMap((op) => Object.values(op!.responses)));
  const [first, ...rest] = responses.map((r) => r.headers ?? {});
  return Object.fromEntries(Object.entries(first ?? {}).filter(([name]) => rest.every((h) => name in h)));
}

function bodyViolations(
  doc: OpenApiDocument,
  res: ObservedResponse,
  response: ResponseObject,
  errorCodes: (status: number) => ErrorCode[] | undefined,
): string[] {
  const content = response.content;
  if (!content || res.method === 'HEAD') return res.text === '' ? [] : [`expected no body, got ${res.text.slice(0, 80)}`];
  const type = (res.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
  const media = content[type];
  if (!media) return [`content type ${type || '(none)'} is not one of ${Object.keys(content).join(', ')}`];
  if (res.body === undefined) return ['expected a JSON body'];
  const out = schemaErrors(media.schema, res.body, doc);
  const code = (res.body as { error?: unknown }).error;
  if (res.status >= 400 && typeof code === 'string') {
    if (ERROR_STATUS[code as ErrorCode] !== res.status) out.push(`error code ${code} belongs to status ${ERROR_STATUS[code as ErrorCode]}`);
    const allowed = errorCodes(res.status);
    if (allowed && !allowed.includes(code as ErrorCode)) out.push(`error code ${code} is not documented here (${allowed.join(', ')})`);
  }
  return out;
}

/**
 * The document's key of the operation a method calls: HEAD is answered by the GET operation's
 * responses; method names are case-sensitive (RFC 9110 §9.1), so `get` calls none.
 */
export function operationKey(method: string): string | undefined {
  if (method === 'HEAD') return 'get';
  return method === method.toUpperCase() ? method.toLowerCase() : undefined;
}

/** Statuses any resource may answer before it knows the method or the path (rate limit, failure). */
const ANY_RESOURCE = [429, 500];

/** Every way `res` departs from the document (empty when it matches). */
export function responseViolations(res: ObservedResponse, doc: OpenApiDocument = openApiDocument): string[] {
  const apiPath = apiPathOf(res.path);
  if (!apiPath) return [];
  const item = doc.paths[apiPath];
  if (!item) {
    // Unknown API paths are a real 404 with an Error body (part 7).
    if (![404, ...ANY_RESOURCE].includes(res.status)) return [`unknown path answered ${res.status}, expected 404`];
    const notFound: ResponseObject = {
      description: 'unknown path',
      headers: commonHeaders(doc),
      content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
    };
    return [...headerViolations(doc, notFound.headers!, res.headers), ...bodyViolations(doc, res, notFound, () => undefined)];
  }
  const key = operationKey(res.method);
  let op: OperationObject | undefined = key === undefined ? undefined : item[key as keyof typeof item];
  if (!op) {
    // An undocumented method on a known path: 405 with Allow (part 4), described on the path's operation.
    if (![405, ...ANY_RESOURCE].includes(res.status)) return [`${res.method} is not documented here, answered ${res.status}, expected 405`];
    op = Object.values(item)[0]!;
  }
  const response = op.responses[String(res.status)];
  if (!response) return [`status ${res.status} is not documented for ${op.operationId} (${Object.keys(op.responses).join(', ')})`];
  const route = routeById(op.operationId as RouteId);
  return [
    ...headerViolations(doc, response.headers ?? {}, res.headers),
    ...bodyViolations(doc, res, response, (status) => errorCodesFor(route, status)),
  ];
}

export function assertMatchesDocument(res: ObservedResponse, doc: OpenApiDocument = openApiDocument): void {
  const violations = responseViolations(res, doc);
  if (violations.length === 0) return;
  throw new Error(
    `${res.method} ${res.path} -> ${res.status} does not match the OpenAPI document:\n  - ${violations.join('\n  - ')}\n` +
      `  body: ${res.text.slice(0, 300)}`,
  );
}

/** The same check for a fetch Response (read from a clone, so the caller can still consume it). */
export async function assertFetchMatchesDocument(method: string, url: string, response: Response, doc: OpenApiDocument = openApiDocument): Promise<void> {
  const text = await response.clone().text();
  const type = response.headers.get('content-type') ?? '';
  const body: unknown = text && /json/i.test(type) ? JSON.parse(text) : undefined;
  const { pathname, search } = new URL(url);
  assertMatchesDocument({ method: method.toUpperCase(), path: `${pathname}${search}`, status: response.status, headers: response.headers, body, text }, doc);
}

/** A fetch that holds every API answer to the document: for clients (oauth4webapi) that bring their own requests. */
export async function documentCheckedFetch(url: string, init: RequestInit = {}): Promise<Response> {
  const response = await fetch(url, init);
  await assertFetchMatchesDocument(init.method ?? 'GET', url, response);
  return response;
}
