/**
 * The one way API tests send a request and read the answer, whether to an in-process h3 app
 * (`app.request`) or to a real server (base URL). Every JSON answer passes through here, so
 * checks that must hold for every response live in `inspect` below.
 */
import { assertMatchesDocument } from './openapi.ts';

export interface Requestable {
  request(input: string | URL | Request, init?: RequestInit): Response | Promise<Response>;
}

export interface ApiResult {
  status: number;
  headers: Headers;
  /** Parsed JSON body, or undefined when the body is empty or not JSON. */
  body: any;
  text: string;
  method: string;
  path: string;
}

export async function send(target: Requestable | string, path: string, init: RequestInit = {}): Promise<ApiResult> {
  const method = (init.method ?? 'GET').toUpperCase();
  const res =
    typeof target === 'string'
      ? await fetch(new URL(path, target), { redirect: 'manual', ...init })
      : await target.request(path, init);
  const text = await res.text();
  const type = res.headers.get('content-type') ?? '';
  let body: unknown;
  if (text && /json/i.test(type)) body = JSON.parse(text);
  const result: ApiResult = { status: res.status, headers: res.headers, body, text, method, path };
  await inspect(result);
  return result;
}

/**
 * Checks every API answer must pass: status, headers and JSON body against the OpenAPI document's
 * operation (found by method and path, /sandbox stripped); unknown API paths must be a 404 Error.
 */
async function inspect(result: ApiResult): Promise<void> {
  assertMatchesDocument(result);
}
