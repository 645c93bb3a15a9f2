/**
 * What a fuzzed answer must be: never a 5xx, never a hang, and every answer to a path under /api/
 * or /sandbox/api/ held to the OpenAPI document: the operation's documented response with its
 * headers and body, or for a request HTTP itself refuses (a raw flaw) the operation's 400 where it
 * documents one, else the Error or OAuthError shape with X-API-Version, the four RateLimit-*
 * fields and nosniff. What node:http's parser refuses (a raw flaw, a method outside its list,
 * CONNECT) may instead get the front's one fixed 400, which no sidecar counted (no RateLimit-*).
 */
import http from 'node:http';
import { API_VERSION, BODY_LIMIT_BYTES, ENV_PREFIX, ERROR_MESSAGES } from '../../api/contract/index.ts';
import { apiPathOf, openApiDocument, operationKey, responseViolations, schemaErrors } from '../support/openapi.ts';
import { incomplete } from './raw-flaws.ts';
import type { FuzzRequest } from './requests.ts';
import type { Answer } from './transport.ts';

const RATE_LIMIT_HEADERS = ['ratelimit-limit', 'ratelimit-remaining', 'ratelimit-reset', 'ratelimit-policy'];

/** Whether the server should treat the target as an API path: the front's rule, on the raw target. */
export function isApiTarget(target: string): boolean {
  const path = target.split('?', 1)[0]!;
  const stripped = path.startsWith(`${ENV_PREFIX.sandbox}/`) ? path.slice(ENV_PREFIX.sandbox.length) : path;
  return stripped === '/api' || stripped.startsWith('/api/');
}

/** The status, or how the exchange ended without one: the key of the counts by status. */
export function outcome(answer: Answer): string {
  return answer.kind === 'response' ? String(answer.status) : answer.kind;
}

/** Every way the answer breaks the rules; empty when it passes. */
export function violations(req: FuzzRequest, answer: Answer): string[] {
  if (answer.kind === 'timeout') return ['no answer and no close within the timeout (hang)'];
  if (answer.kind === 'closed') return incomplete(req) || oversize(req) ? [] : [`connection ended without an answer (${answer.detail})`];
  const out: string[] = [];
  if (answer.status >= 500) out.push(`status ${answer.status}`);
  // The absolute-form (RFC 9112 §3.2.2) is answered as the origin-form it names: req.target.
  if (!isApiTarget(req.target)) return out;
  if (refusedByFront(req) && fixedRefusal(answer)) return out;

  const { headers } = answer;
  if (headers.get('x-api-version') !== API_VERSION) out.push(`X-API-Version is ${headers.get('x-api-version')}`);
  for (const name of RATE_LIMIT_HEADERS) if (!headers.has(name)) out.push(`no ${name}`);
  if (headers.get('x-content-type-options') !== 'nosniff') out.push('no X-Content-Type-Options: nosniff');
  // A body that never completes (lying length, missing last chunk) shows its flaw only when the
  // client closes. An answer given before that, from what came first (a GET of the index, whose
  // body no one reads; a 413 after 64 KB + 1, all the front passes on), is held to the operation
  // like any other; a 400 means the flaw was seen first and is held to the error shape.
  const observed = { method: req.method, path: req.target, status: answer.status, headers, body: answer.body, text: answer.text };
  if (refused(req) && !(incomplete(req) && answer.status !== 400)) {
    if (answer.status < 400) out.push(`a request with a flaw (${req.flaw}) was answered ${answer.status}`);
    else if (documents(req, answer.status)) out.push(...responseViolations(observed));
    else if (req.method !== 'HEAD') out.push(...errorShape(answer));
  } else if (refusedContent(req, answer)) {
    if (req.method !== 'HEAD') out.push(...errorShape(answer));
  } else {
    out.push(...responseViolations(observed));
  }
  return out;
}

/** Requests node:http does not hand over as such (or hands over as a tunnel), and a flaw the front refuses. */
function refusedByFront(req: FuzzRequest): boolean {
  return refused(req) || !http.METHODS.includes(req.method) || req.method === 'CONNECT';
}

/** The front's one answer to what it cannot carry (api/front/own-answers.ts). */
function fixedRefusal(answer: Extract<Answer, { kind: 'response' }>): boolean {
  const { headers, body } = answer;
  // HEAD gets the headers only (RFC 9110 §9.3.2).
  const shaped = answer.text === '' || JSON.stringify(body) === JSON.stringify({ error: 'invalid_request', message: ERROR_MESSAGES.invalid_request });
  return answer.status === 400 && shaped && headers.get('x-api-version') === API_VERSION && headers.get('x-content-type-options') === 'nosniff';
}

/** A flaw HTTP refuses; the absolute-form is none (RFC 9112 §3.2.2: a server MUST accept it). */
function refused(req: FuzzRequest): boolean {
  return req.flaw !== undefined && req.flaw !== 'absolute-form';
}

/** Whether the operation of the request's method and path documents `status` (its 400, for a refused request). */
function documents(req: FuzzRequest, status: number): boolean {
  const path = apiPathOf(req.target);
  const op = path === undefined ? undefined : openApiDocument.paths[path]?.[operationKey(req.method) as 'get'];
  return op !== undefined && String(status) in op.responses;
}

function errorShape(answer: Extract<Answer, { kind: 'response' }>): string[] {
  if (!/^application\/json\b/i.test(answer.headers.get('content-type') ?? '')) return [`content type ${answer.headers.get('content-type')}`];
  if (answer.body === undefined) return [`no JSON body: ${answer.text.slice(0, 80)}`];
  const plain = schemaErrors({ $ref: '#/components/schemas/Error' }, answer.body);
  const oauth = schemaErrors({ $ref: '#/components/schemas/OAuthError' }, answer.body);
  return plain.length && oauth.length ? plain.map((e) => `Error schema: ${e}`) : [];
}

/**
 * RFC 9110 §9.3.1, §9.3.2, §9.3.5, §9.3.7, §9.3.8: content in a GET, HEAD, DELETE, OPTIONS or TRACE
 * request has no defined meaning and may be rejected; a 400 invalid_request for it is fair.
 */
function refusedContent(req: FuzzRequest, answer: Extract<Answer, { kind: 'response' }>): boolean {
  const carries = req.body.length > 0 || req.chunked;
  return carries && answer.status === 400 && ['GET', 'HEAD', 'DELETE', 'OPTIONS', 'TRACE'].includes(req.method.toUpperCase());
}

/** A body over the limit may be cut off by a closed connection once the 413 is out (RFC 9112 §9.6). */
function oversize(req: FuzzRequest): boolean {
  return req.body.length > BODY_LIMIT_BYTES;
}
