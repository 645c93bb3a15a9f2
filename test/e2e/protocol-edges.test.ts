/**
 * At the protocol's edges, on the real stack over raw sockets: node:http's parser has the last word
 * on what is HTTP (what it refuses gets the front's one fixed 400 in the API's JSON shape); every
 * request it hands over keeps the contract's answer: a listed method a route does not take gets
 * the route's 405, the absolute-form of the request target is accepted (RFC 9112 §3.2.2), an
 * expectation other than 100-continue is ignored (RFC 9110 §10.1.1).
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

/** The headers of every answer the sidecar gives (contract part 8 and 9). */
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

/** The front's one answer to what it cannot carry: counted by no sidecar, so without RateLimit-*. */
function expectRefused(answer: Response): void {
  expect(answer.status).toBe(400);
  expect(answer.headers.get('content-type')).toBe('application/json');
  expect(answer.body).toEqual({ error: 'invalid_request', message: ERROR_MESSAGES.invalid_request });
  expect(answer.headers.get('x-api-version')).toBe(API_VERSION);
  expect(answer.headers.get('x-content-type-options')).toBe('nosniff');
  expect(answer.headers.get('connection')).toBe('close');
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

describe('methods', { timeout: 30_000 }, () => {
  test.each([
    ['PROPFIND', API_PATHS.status, 'GET, HEAD'],
    ['PATCH', API_PATHS.waitlist, 'POST'],
    ['PROPFIND', `${ENV_PREFIX.sandbox}${API_PATHS.stats}`, 'GET, HEAD'],
  ])('a listed method a route does not take: %s %s -> the route 405 with Allow: %s, as the document says', async (method, target, allow) => {
    const answer = await exchange(line(method, target, 'Host: edges.example\r\nConnection: close\r\n'));
    expectError(answer, 405, 'method_not_allowed');
    expect(answer.headers.get('allow')).toBe(allow);
    expect(documented(method, target, answer)).toEqual([]);
  });

  test.each([
    ['a method outside node:http\'s list', line('FOO', API_PATHS.status)],
    ['a lower-case method (tokens are case-sensitive, RFC 9110 §9.1)', line('get', API_PATHS.status)],
    ['a method that is not a token', line('G@T', API_PATHS.status)],
    ['a page path', line('FOO', '/')],
    ['CONNECT on an API path (the front opens no tunnels)', line('CONNECT', API_PATHS.status)],
    ['CONNECT with an authority-form target', line('CONNECT', 'edges.example:443')],
    ['a head over the 16 KB limit', line('GET', API_PATHS.status, `Host: edges.example\r\nX-Fill: ${'h'.repeat(maxHeaderSize)}\r\n`)],
  ])('refused by node:http\'s parser: %s -> the fixed 400 invalid_request, then the connection closes', async (_name, text) => {
    expectRefused(await exchange(text));
  });

  test('a refused request with a body is answered without reading it', async () => {
    expectRefused(await exchange(`FOO ${API_PATHS.waitlist} HTTP/1.1\r\nHost: edges.example\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}`));
  });
});

describe('heads and expectations', { timeout: 30_000 }, () => {
  test('a head the front takes (just under its 16 KB) is not refused by the sidecar in node:http\'s bare shape: 200 with the API headers', async () => {
    const fill = 'h'.repeat(maxHeaderSize - 200);
    const answer = await exchange(line('GET', API_PATHS.status, `Host: edges.example\r\nConnection: close\r\nX-Fill: ${fill}\r\n`));
    expect(answer.status).toBe(200);
    expectApiHeaders(answer);
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
  ])('absolute-form: %s is refused with the fixed 400 invalid_request', async (_name, target) => {
    expectRefused(await exchange(line('GET', target)));
  });

  test('absolute-form: the Host field is still required in HTTP/1.1 and must be single (RFC 9112 §3.2) -> 400 invalid_request', async () => {
    expectRefused(await exchange(line('GET', `http://edges.example${API_PATHS.status}`, '')));
    expectRefused(await exchange(line('GET', `http://edges.example${API_PATHS.status}`, 'Host: a.example\r\nHost: b.example\r\n')));
  });
});
