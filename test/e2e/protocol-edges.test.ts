/**
 * At the protocol's edges, on the real stack over raw sockets: whatever decides an answer on an API
 * path (node:http's parser, the front's own checks, the sidecar), it has the API's shape and
 * headers; a method the parser does not know is answered like any other method its resource does
 * not take; the absolute-form of the request target is accepted (RFC 9112 §3.2.2); an expectation
 * other than 100-continue is ignored (RFC 9110 §10.1.1). Every refused request leaves its line in
 * the request log.
 */
import { maxHeaderSize } from 'node:http';
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, inject, test, vi } from 'vitest';
import { API_PATHS, API_VERSION, ERROR_MESSAGES, ENV_PREFIX, type ErrorCode } from '../../api/contract/index.ts';
import { OWN_STACK_TIMEOUT_MS, startStack, type RunningStack } from '../support/stack.ts';
import { parseResponse, type Answer } from '../fuzz/transport.ts';
import { responseViolations } from '../support/openapi.ts';

const shared = inject('stack');
let stack: RunningStack;
let port: number;
beforeAll(async () => {
  stack = await startStack({ distDir: shared.distDir, baseUrl: shared.baseUrl, env: { LOG_REQUESTS: 'true', LOG_FORMAT: 'json' } });
  port = Number(new URL(stack.url).port);
}, OWN_STACK_TIMEOUT_MS);
afterAll(() => stack?.stop(), OWN_STACK_TIMEOUT_MS);

type Response = Extract<Answer, { kind: 'response' }>;

/** Writes `text` on a fresh connection and reads the answer until the front closes it. */
function exchange(text: string, from = '127.0.0.21'): Promise<Response & { raw: string }> {
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host: '127.0.0.1', port, localAddress: from }, () => socket.write(text));
    const chunks: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', () => {});
    socket.setTimeout(10_000, () => socket.destroy());
    socket.on('close', () => {
      const bytes = Buffer.concat(chunks);
      const answer = parseResponse(bytes, text.startsWith('HEAD '));
      if (answer?.kind !== 'response') return reject(new Error(`no answer: ${JSON.stringify(bytes.toString('latin1'))}`));
      resolve({ ...answer, raw: bytes.toString('latin1') });
    });
  });
}

const line = (method: string, target: string, fields = 'Host: edges.example\r\n') => `${method} ${target} HTTP/1.1\r\n${fields}\r\n`;

function expectApiHeaders(answer: Response): void {
  expect(answer.headers.get('x-api-version')).toBe(API_VERSION);
  expect(answer.headers.get('x-content-type-options')).toBe('nosniff');
  for (const name of ['ratelimit-limit', 'ratelimit-remaining', 'ratelimit-reset']) expect(answer.headers.get(name)).toMatch(/^\d+$/);
  expect(answer.headers.get('ratelimit-policy')).toMatch(/^\d+;w=\d+$/);
}

function expectError(answer: Response, status: number, code: ErrorCode): void {
  expect(answer.status).toBe(status);
  expect(answer.headers.get('content-type')).toBe('application/json');
  expect(answer.body).toEqual({ error: code, message: ERROR_MESSAGES[code] });
  expectApiHeaders(answer);
}

/** The answer, held to the OpenAPI document as the fuzz suite holds it. */
function documented(method: string, target: string, answer: Response): string[] {
  return responseViolations({ method, path: target, status: answer.status, headers: answer.headers, body: answer.body, text: answer.text });
}

/** The request line is written when the exchange has ended, and reaches the stack's output a moment later. */
async function loggedLine(line: unknown): Promise<void> {
  await vi.waitFor(() => expect(requestLines()).toContainEqual(line), { timeout: 5_000, interval: 20 });
}

function requestLines(): { method: string; path: string; status: number }[] {
  return stack
    .output()
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l) as { msg: string; method: string; path: string; status: number })
    .filter((e) => e.msg === 'request');
}

describe('a method the HTTP parser does not know', { timeout: 30_000 }, () => {
  test.each([
    [API_PATHS.status, 'GET, HEAD'],
    [`${ENV_PREFIX.sandbox}${API_PATHS.status}`, 'GET, HEAD'],
    [API_PATHS.waitlist, 'POST'],
    [API_PATHS.stats, 'GET, HEAD'],
    [API_PATHS.index, 'GET, HEAD'],
  ])('unknown method: FOO %s -> 405 method_not_allowed with Allow: %s and the API headers, as the document says', async (target, allow) => {
    const answer = await exchange(line('FOO', target));
    expectError(answer, 405, 'method_not_allowed');
    expect(answer.headers.get('allow')).toBe(allow);
    expect(answer.headers.get('connection')).toBe('close');
    expect(documented('FOO', target, answer)).toEqual([]);
  });

  test('unknown method: its answer is the one a listed method the route does not take gets (PUT), field for field', async () => {
    for (const target of [API_PATHS.token, API_PATHS.waitlistLegacy, `${ENV_PREFIX.sandbox}${API_PATHS.token}`]) {
      const unknown = await exchange(line('FOO', target), '127.0.0.22');
      const put = await exchange(line('PUT', target, 'Host: edges.example\r\nConnection: close\r\n'), '127.0.0.23');
      expect(unknown.status).toBe(405);
      expect(unknown.body).toEqual(put.body);
      const fields = (a: Response) => [...a.headers].filter(([name]) => !['date', 'ratelimit-remaining', 'ratelimit-reset'].includes(name));
      expect(fields(unknown)).toEqual(fields(put));
    }
  });

  test('unknown method: method tokens are case-sensitive (RFC 9110 §9.1): get /api/v1/status -> 405; FOO off the route table -> 404 not_found', async () => {
    expectError(await exchange(line('get', API_PATHS.status)), 405, 'method_not_allowed');
    expectError(await exchange(line('FOO', '/api/v1/prices')), 404, 'not_found');
  });

  test('unknown method: with a body, it is answered without reading the body, and the connection closes', async () => {
    const answer = await exchange(`FOO ${API_PATHS.waitlist} HTTP/1.1\r\nHost: edges.example\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}`);
    expectError(answer, 405, 'method_not_allowed');
    expect(answer.headers.get('connection')).toBe('close');
  });

  test('unknown method: pages answer it as pages answer any other method: 405 Allow: GET, HEAD on a page, 404 off the site', async () => {
    const page = await exchange(line('FOO', '/'));
    expect(page.status).toBe(405);
    expect(page.headers.get('allow')).toBe('GET, HEAD');
    expect(page.headers.get('x-api-version')).toBeNull();
    const missing = await exchange(line('FOO', '/no-such-page/'));
    expect(missing.status).toBe(404);
    expect(missing.headers.get('content-type')).toMatch(/^text\/html/);
  });

  test('unknown method: a method that is not a token (G@T) is still a malformed request: 400 invalid_request', async () => {
    expectError(await exchange(line('G@T', API_PATHS.status)), 400, 'invalid_request');
  });

  test('CONNECT: on an API path -> the route 405; with an authority-form target -> 400 invalid_request; never a connection closed unanswered', async () => {
    const onPath = await exchange(line('CONNECT', API_PATHS.status));
    expectError(onPath, 405, 'method_not_allowed');
    expect(onPath.headers.get('allow')).toBe('GET, HEAD');
    expectError(await exchange(line('CONNECT', 'edges.example:443')), 400, 'invalid_request');
  });

  test('unknown method: the request leaves its line in the request log, with the method as sent', async () => {
    await exchange(line('FROBNICATE', `${API_PATHS.status}?q=1`));
    await loggedLine(expect.objectContaining({ method: 'FROBNICATE', path: API_PATHS.status, status: 405 }));
  });
});

describe('refusals below the API have the API shape of their route', { timeout: 30_000 }, () => {
  const framing = [
    ['Transfer-Encoding with Content-Length', 'Transfer-Encoding: chunked\r\nContent-Length: 5\r\n'],
    ['non-numeric Content-Length', 'Content-Length: abc\r\n'],
    ['a space before the colon', 'Content-Type : application/x-www-form-urlencoded\r\n'],
  ];
  test.each(framing)('token endpoint, %s -> 400 {error, error_description} with no-store, no-cache and the API headers, and a request line in the log', async (_name, fields) => {
    for (const target of [API_PATHS.token, `${ENV_PREFIX.sandbox}${API_PATHS.token}`]) {
      const answer = await exchange(`POST ${target} HTTP/1.1\r\nHost: edges.example\r\n${fields}\r\n0\r\n\r\n`);
      expect(answer.status).toBe(400);
      expect(answer.body).toEqual({ error: 'invalid_request', error_description: ERROR_MESSAGES.invalid_request });
      expect(answer.headers.get('cache-control')).toBe('no-store');
      expect(answer.headers.get('pragma')).toBe('no-cache');
      expectApiHeaders(answer);
      expect(documented('POST', target, answer)).toEqual([]);
      await loggedLine(expect.objectContaining({ method: 'POST', path: target, status: 400 }));
    }
  });

  test('deprecated alias, a framing error -> 400 invalid_request with Deprecation and the successor Link, as on every answer of the alias', async () => {
    const answer = await exchange(`POST ${API_PATHS.waitlistLegacy} HTTP/1.1\r\nHost: edges.example\r\nContent-Length: abc\r\n\r\n`);
    expectError(answer, 400, 'invalid_request');
    expect(answer.headers.get('deprecation')).toMatch(/^@\d+$/);
    expect(answer.headers.get('link')).toContain('rel="successor-version"');
    expect(documented('POST', API_PATHS.waitlistLegacy, answer)).toEqual([]);
  });

  test('a head the front takes (just under its 16 KB) is not refused by the sidecar in node:http\'s bare shape: 200 with the API headers', async () => {
    const fill = 'h'.repeat(maxHeaderSize - 200);
    const answer = await exchange(line('GET', API_PATHS.status, `Host: edges.example\r\nConnection: close\r\nX-Fill: ${fill}\r\n`));
    expect(answer.status).toBe(200);
    expectApiHeaders(answer);
  });

  test('a head over the front\'s 16 KB with a method the parser does not know -> 400 invalid_request, not passed on', async () => {
    const fill = 'h'.repeat(maxHeaderSize);
    expectError(await exchange(line('FOO', API_PATHS.status, `Host: edges.example\r\nX-Fill: ${fill}\r\n`)), 400, 'invalid_request');
  });

  test('RFC 9110 §10.1.1: an expectation other than 100-continue is ignored, not a bare 417: the API answers as without it', async () => {
    const status = await exchange(line('GET', API_PATHS.status, 'Host: edges.example\r\nExpect: the-unexpected\r\nConnection: close\r\n'));
    expect(status.status).toBe(200);
    expectApiHeaders(status);
    const body = '{"email":"expect@example.org","consent":true}';
    const signup = await exchange(
      `POST ${ENV_PREFIX.sandbox}${API_PATHS.waitlist} HTTP/1.1\r\nHost: edges.example\r\nExpect: 200-ok\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n${body}`,
    );
    expect(signup.status).toBe(200);
    expect(signup.body).toEqual({ accepted: true });
    const page = await exchange(line('GET', '/', 'Host: edges.example\r\nExpect: x\r\nConnection: close\r\n'));
    expect(page.status).toBe(200);
  });
});

describe('RFC 9112 §3.2.2: the absolute-form of the request target', { timeout: 30_000 }, () => {
  test('absolute-form: GET http://host:port/api/v1/status -> 200 as for the origin-form; the scheme and host are case-insensitive', async () => {
    for (const target of [`http://edges.example:${port}${API_PATHS.status}`, `HTTP://EDGES.example${ENV_PREFIX.sandbox}${API_PATHS.status}?x=1`]) {
      const answer = await exchange(line('GET', target, 'Host: edges.example\r\nConnection: close\r\n'));
      expect(answer.status).toBe(200);
      expectApiHeaders(answer);
      expect((answer.body as { environment: string }).environment).toBe(target.includes(ENV_PREFIX.sandbox) ? 'sandbox' : 'production');
    }
  });

  test('absolute-form: a POST and a page are answered as for the origin-form; the request line logs the path', async () => {
    const body = 'email=absolute%40example.org&consent=on';
    const post = await exchange(
      `POST http://edges.example${ENV_PREFIX.sandbox}${API_PATHS.waitlist} HTTP/1.1\r\nHost: edges.example\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n${body}`,
    );
    expect(post.status).toBe(303);
    const page = await exchange(line('GET', 'https://edges.example', 'Host: edges.example\r\nConnection: close\r\n'));
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    await loggedLine(expect.objectContaining({ method: 'POST', path: `${ENV_PREFIX.sandbox}${API_PATHS.waitlist}`, status: 303 }));
  });

  test.each([
    ['another scheme', `ftp://edges.example${API_PATHS.status}`],
    ['userinfo (RFC 9110 §4.2.4)', `http://user:secret@edges.example${API_PATHS.status}`],
    ['an empty host (RFC 9110 §4.2.1)', `http://${API_PATHS.status}`],
    ['a fragment', `http://edges.example${API_PATHS.status}#top`],
  ])('absolute-form: %s is refused with 400 invalid_request in the API shape', async (_name, target) => {
    expectError(await exchange(line('GET', target)), 400, 'invalid_request');
  });

  test('absolute-form: the Host field is still required in HTTP/1.1 and must be single (RFC 9112 §3.2) -> 400 invalid_request', async () => {
    expectError(await exchange(line('GET', `http://edges.example${API_PATHS.status}`, '')), 400, 'invalid_request');
    expectError(await exchange(line('GET', `http://edges.example${API_PATHS.status}`, 'Host: a.example\r\nHost: b.example\r\n')), 400, 'invalid_request');
  });
});
