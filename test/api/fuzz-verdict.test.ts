/**
 * The fuzz suite's judge (test/fuzz/verdict.ts) and its raw response reader, held to the answers
 * it must catch: a bare parser 400 on an API path, a 5xx, a hang and a dropped connection fail;
 * a documented answer, and the front's fixed refusal of what node:http refuses, pass.
 */
import { describe, expect, it } from 'vitest';
import { API_PATHS, ERROR_MESSAGES } from '../../api/contract/index.ts';
import { rawBytes } from '../fuzz/raw-flaws.ts';
import type { FuzzRequest } from '../fuzz/requests.ts';
import { parseResponse, type Answer } from '../fuzz/transport.ts';
import { violations } from '../fuzz/verdict.ts';

const request = (over: Partial<FuzzRequest> = {}): FuzzRequest => ({
  channel: 'raw',
  method: 'GET',
  target: API_PATHS.status,
  headers: [],
  body: new Uint8Array(0),
  chunked: false,
  ...over,
});

const API_HEADERS = 'Content-Type: application/json\r\nX-API-Version: 1\r\nX-Content-Type-Options: nosniff\r\nRateLimit-Limit: 120\r\nRateLimit-Remaining: 119\r\nRateLimit-Reset: 60\r\nRateLimit-Policy: 120;w=60\r\n';

function answer(text: string, head = false): Answer {
  const parsed = parseResponse(Buffer.from(text, 'latin1'), head);
  if (!parsed) throw new Error('no response in the text');
  return parsed;
}

describe('fuzz verdict', () => {
  it('verdict: a bare parser 400 on an API path fails (no JSON, no X-API-Version, no RateLimit-*)', () => {
    const problems = violations(request({ flaw: 'word-length' }), answer('HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n'));
    expect(problems).toEqual(expect.arrayContaining(['X-API-Version is null', 'no ratelimit-limit', 'no X-Content-Type-Options: nosniff']));
  });

  it('verdict: the contract 400 for a parser refusal passes', () => {
    const body = '{"error":"invalid_request","message":"The request is malformed."}';
    expect(violations(request({ flaw: 'word-length' }), answer(`HTTP/1.1 400 Bad Request\r\n${API_HEADERS}Content-Length: ${body.length}\r\n\r\n${body}`))).toEqual([]);
  });

  it("verdict: the front's fixed 400 (no RateLimit-*) passes for what node:http refuses (a flaw, a method outside its list, CONNECT), and fails for a request it hands over", () => {
    const body = JSON.stringify({ error: 'invalid_request', message: ERROR_MESSAGES.invalid_request });
    const fixed = answer(`HTTP/1.1 400 Bad Request\r\nContent-Type: application/json\r\nX-API-Version: 1\r\nX-Content-Type-Options: nosniff\r\nConnection: close\r\nContent-Length: ${body.length}\r\n\r\n${body}`);
    for (const refused of [{ flaw: 'word-length' as const }, { method: 'FOO' }, { method: 'get' }, { method: 'CONNECT' }]) expect(violations(request(refused), fixed)).toEqual([]);
    expect(violations(request(), fixed)).toContain('no ratelimit-limit');
    expect(violations(request({ method: 'PROPFIND' }), fixed).join()).toMatch(/expected 405/);
  });

  it("verdict: a refusal on the token endpoint is held to the token endpoint's 400: {error, message} and no Pragma fail", () => {
    const body = '{"error":"invalid_request","message":"The request is malformed."}';
    const problems = violations(request({ method: 'POST', target: API_PATHS.token, flaw: 'word-length' }), answer(`HTTP/1.1 400 Bad Request\r\n${API_HEADERS}Cache-Control: no-store\r\nContent-Length: ${body.length}\r\n\r\n${body}`));
    expect(problems.join()).toMatch(/missing header Pragma/);
    expect(problems.join()).toMatch(/error_description/);
  });

  it('verdict: the absolute-form is no flaw: a 400 to it on an API path fails', () => {
    const body = '{"error":"invalid_request","message":"The request is malformed."}';
    expect(violations(request({ flaw: 'absolute-form' }), answer(`HTTP/1.1 400 Bad Request\r\n${API_HEADERS}Content-Length: ${body.length}\r\n\r\n${body}`)).length).toBeGreaterThan(0);
  });

  it('verdict: a 500, a 502, a hang and an unexplained dropped connection fail', () => {
    expect(violations(request({ target: '/' }), answer('HTTP/1.1 502 Bad Gateway\r\nContent-Length: 0\r\n\r\n'))).toContain('status 502');
    expect(violations(request(), { kind: 'timeout' })).toHaveLength(1);
    expect(violations(request(), { kind: 'closed', detail: 'ECONNRESET' })).toHaveLength(1);
    expect(violations(request({ flaw: 'lying-length' }), { kind: 'closed', detail: 'no response' })).toEqual([]);
  });

  it('verdict: a documented status-probe 200 passes, an undocumented status fails', () => {
    const body = JSON.stringify({ status: 'ok', service: 'site-web', apiVersion: '1', environment: 'production', time: '2026-11-23T00:00:00.000Z', docs: 'https://x.example/developers/', openapi: 'https://x.example/openapi.json' });
    expect(violations(request(), answer(`HTTP/1.1 200 OK\r\n${API_HEADERS}Transfer-Encoding: chunked\r\n\r\n${body.length.toString(16)}\r\n${body}\r\n0\r\n\r\n`))).toEqual([]);
    const notFound = '{"error":"not_found","message":"x"}';
    expect(violations(request(), answer(`HTTP/1.1 404 Not Found\r\n${API_HEADERS}Content-Length: ${notFound.length}\r\n\r\n${notFound}`)).join()).toMatch(/404/);
  });

  it('raw reader: interim 100 Continue is skipped; HEAD has no body', () => {
    const parsed = answer(`HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\n${API_HEADERS}\r\n`, true);
    expect(parsed).toMatchObject({ kind: 'response', status: 200, text: '' });
  });

  it('raw writer: each length flaw is written as a Content-Length even when the request was chunked', () => {
    const bytes = rawBytes(request({ method: 'POST', body: new TextEncoder().encode('{}'), chunked: true, flaw: 'two-lengths' })).toString('latin1');
    expect(bytes.match(/^Content-Length: /gm)).toHaveLength(2);
    expect(bytes).not.toMatch(/Transfer-Encoding/);
  });
});
