/**
 * One OpenAPI operation per route of the contract's route table (part 4), with its request body,
 * every status of part 4's table, their bodies, headers and examples.
 */
import { STATUS_CODES } from 'node:http';
import {
  BODY_LIMIT_BYTES,
  ErrorBody,
  OAuthErrorBody,
  RATE_LIMIT_POLICIES,
  RATE_LIMIT_WINDOW_SECONDS,
  STATS_SCOPE,
  requestSchema,
  type MediaType,
  type Method,
  type Route,
} from '../contract/index.ts';
import { errorCodesFor, usesOAuthError } from './error-codes.ts';
import { errorExample, requestExample, successExample, type Example } from './examples.ts';
import { responseHeaders, type HeaderObject } from './headers.ts';
import { schemaId, schemaRef, type JsonSchema, type Ref } from './json-schemas.ts';

export interface ResponseObject {
  description: string;
  headers?: Record<string, HeaderObject | Ref>;
  content?: Record<string, { schema: JsonSchema; examples?: Record<string, Example> }>;
}
/** An alternative of an operation's `security`: scheme names with their scopes. */
export type SecurityRequirement = Record<string, string[]>;

/** Names of the security schemes in `components.securitySchemes`. */
export const SCHEME = {
  production: 'oauth2',
  sandbox: 'oauth2Sandbox',
  clientBasic: 'clientSecretBasic',
} as const;

/** RFC 9110 §15 renamed two of the reason phrases node:http still writes. */
const RFC_9110_REASONS: Record<number, string> = { 413: 'Content Too Large', 422: 'Unprocessable Content' };

function reasonPhrase(status: number): string {
  const reason = RFC_9110_REASONS[status] ?? STATUS_CODES[status];
  if (!reason) throw new Error(`no reason phrase for status ${status}`);
  return reason;
}

/** The route's main operation: POST, or GET (whose HEAD twin is headOperation). */
export function methodKey(methods: readonly Method[]): 'get' | 'post' {
  return methods.includes('POST') ? 'post' : 'get';
}

function security(route: Route): SecurityRequirement[] {
  switch (route.auth) {
    case 'none':
      return [];
    // RFC 6749 §2.3.1: HTTP Basic, or (the empty requirement) client_id and client_secret in the form body.
    case 'client':
      return [{ [SCHEME.clientBasic]: [] }, {}];
    case 'bearer':
      return [{ [SCHEME.production]: [STATS_SCOPE] }, { [SCHEME.sandbox]: [STATS_SCOPE] }];
  }
}

function description(route: Route): string {
  const lines = [route.description];
  if (route.methods.includes('HEAD')) lines.push('HEAD answers like GET, without a body.');
  if (route.auth === 'bearer') {
    lines.push('Use a token from the token endpoint of the same environment: production tokens fail on the sandbox and the other way round.');
  }
  lines.push(
    `Rate limit: ${RATE_LIMIT_POLICIES[route.rateLimit]} requests per ${RATE_LIMIT_WINDOW_SECONDS} seconds per client ` +
      `(sandbox: ${RATE_LIMIT_POLICIES.relaxed}).`,
  );
  return lines.join('\n\n');
}

function successResponse(route: Route, status: 200 | 303, baseUrl: string): ResponseObject {
  const headers = responseHeaders(route, status);
  const schema = route.success[status];
  if (status === 303 || !schema) {
    return {
      description: `${reasonPhrase(status)}: the form-encoded sign-up was accepted; Location is the thanks page in the language of the sign-up.`,
      headers,
    };
  }
  return {
    description: `${reasonPhrase(status)}: ${schemaId(schema)}.`,
    headers,
    content: { 'application/json': { schema: schemaRef(schema), examples: { ok: successExample(schema, baseUrl) } } },
  };
}

function errorResponse(route: Route, status: number): ResponseObject {
  const codes = errorCodesFor(route, status);
  if (codes.length === 0) throw new Error(`${route.id}: no error code has status ${status}`);
  const examples = Object.fromEntries(codes.map((code) => [code, errorExample(route, status, code)]));
  return {
    description: `${reasonPhrase(status)}. Error codes: ${codes.map((code) => `\`${code}\``).join(', ')}.`,
    headers: responseHeaders(route, status),
    content: { 'application/json': { schema: schemaRef(usesOAuthError(route, status) ? OAuthErrorBody : ErrorBody), examples } },
  };
}

/**
 * RFC 9110 §9.3.2: HEAD is GET without content. It is a separate operation (its own operationId)
 * so that generated clients can call it: the same statuses and headers as GET, no bodies.
 */
export function headOperation(route: Route, baseUrl: string): OperationObject {
  const get = operation(route, baseUrl);
  const responses = Object.fromEntries(
    Object.entries(get.responses).map(([status, response]) => [status, { description: response.description, headers: response.headers }]),
  );
  return {
    ...get,
    operationId: `${route.id}Head`,
    summary: `${route.summary} (headers only)`,
    description: `The status and headers of \`GET\`, without a body (RFC 9110 §9.3.2).\n\n${get.description}`,
    responses,
  };
}

export function operation(route: Route, baseUrl: string) {
  const responses: Record<string, ResponseObject> = {};
  for (const status of route.statuses) {
    responses[String(status)] =
      status === 200 || status === 303 ? successResponse(route, status, baseUrl) : errorResponse(route, status);
  }
  return {
    operationId: route.id,
    summary: route.summary,
    description: description(route),
    tags: [route.tag],
    security: security(route),
    responses,
    ...(route.deprecated ? { deprecated: true } : {}),
    ...(route.request ? { requestBody: requestBody(route, route.request.mediaTypes) } : {}),
  };
}

export type OperationObject = ReturnType<typeof operation>;

function requestBody(route: Route, mediaTypes: readonly MediaType[]) {
  const limitKb = BODY_LIMIT_BYTES / 1024;
  return {
    required: true,
    description:
      mediaTypes.length > 1
        ? `The same fields as JSON (\`${schemaId(requestSchema(route, 'application/json'))}\`) or form-encoded ` +
          `(\`${schemaId(requestSchema(route, 'application/x-www-form-urlencoded'))}\`: every value is text, a checked consent box ` +
          `is \`on\`, an empty choice is no answer). At most ${limitKb} KB.`
        : `Form-encoded. At most ${limitKb} KB.`,
    content: Object.fromEntries(
      mediaTypes.map((type) => [type, { schema: schemaRef(requestSchema(route, type)), examples: { example: requestExample(route, type) } }]),
    ),
  };
}
