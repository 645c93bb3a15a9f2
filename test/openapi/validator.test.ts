/**
 * The response validator behind `send()`: it must accept what the document describes and reject
 * every kind of drift, or the API tests would pass on a lying document.
 */
import { describe, expect, it } from 'vitest';
import {
  API_PATHS,
  API_VERSION,
  ENV_PREFIX,
  ERROR_MESSAGES,
  RATE_LIMIT_WINDOW_SECONDS,
  THANKS_PATHS,
} from '../../api/contract/index.ts';
import { responseViolations, type ObservedResponse } from '../support/openapi.ts';

const rateLimit = {
  'RateLimit-Limit': '30',
  'RateLimit-Remaining': '29',
  'RateLimit-Reset': '60',
  'RateLimit-Policy': `30;w=${RATE_LIMIT_WINDOW_SECONDS}`,
  'X-API-Version': API_VERSION,
};

function observed(method: string, path: string, status: number, body: unknown, headers: Record<string, string> = {}): ObservedResponse {
  const text = body === undefined ? '' : JSON.stringify(body);
  const all = body === undefined ? { ...rateLimit, ...headers } : { 'Content-Type': 'application/json', ...rateLimit, ...headers };
  return { method, path, status, headers: new Headers(all), body, text };
}

const error = (code: keyof typeof ERROR_MESSAGES) => ({ error: code, message: ERROR_MESSAGES[code] });

describe('response validator (inspect)', () => {
  it('a documented 200 with a valid body and every required header passes', () => {
    expect(responseViolations(observed('POST', API_PATHS.waitlist, 200, { accepted: true }))).toEqual([]);
  });

  it('the /sandbox prefix is stripped to find the operation', () => {
    expect(responseViolations(observed('POST', `${ENV_PREFIX.sandbox}${API_PATHS.waitlist}`, 200, { accepted: true }))).toEqual([]);
    expect(responseViolations(observed('POST', `${ENV_PREFIX.sandbox}${API_PATHS.waitlist}`, 200, { accepted: false }))).not.toEqual([]);
  });

  it('a body that breaks the schema (extra field) is a violation', () => {
    expect(responseViolations(observed('POST', API_PATHS.waitlist, 200, { accepted: true, id: 1 })).join()).toMatch(/additional/);
  });

  it('a missing RateLimit header is a violation', () => {
    const res = observed('POST', API_PATHS.waitlist, 200, { accepted: true });
    res.headers.delete('RateLimit-Remaining');
    expect(responseViolations(res)).toEqual(['missing header RateLimit-Remaining']);
  });

  it('a non-integer RateLimit-Reset and a malformed RateLimit-Policy are violations', () => {
    const res = observed('POST', API_PATHS.waitlist, 200, { accepted: true }, { 'RateLimit-Reset': '1767225600.5', 'RateLimit-Policy': 'lots' });
    expect(responseViolations(res)).toHaveLength(2);
  });

  it('an undocumented status is a violation', () => {
    expect(responseViolations(observed('POST', API_PATHS.waitlist, 201, { accepted: true })).join()).toMatch(/not documented/);
  });

  it('an error code of another status, or not documented for the operation, is a violation', () => {
    expect(responseViolations(observed('POST', API_PATHS.waitlist, 400, error('invalid_email'))).join()).toMatch(/belongs to status 422/);
    expect(responseViolations(observed('POST', API_PATHS.waitlist, 400, error('invalid_scope'))).join()).toMatch(/not documented here/);
    expect(responseViolations(observed('POST', API_PATHS.waitlist, 422, error('invalid_email')))).toEqual([]);
  });

  it('token 400 must be {error, error_description}; {error, message} is a violation', () => {
    const oauth = { error: 'invalid_scope', error_description: ERROR_MESSAGES.invalid_scope };
    const noStore = { 'Cache-Control': 'no-store', Pragma: 'no-cache' };
    expect(responseViolations(observed('POST', API_PATHS.token, 400, oauth, noStore))).toEqual([]);
    expect(responseViolations(observed('POST', API_PATHS.token, 400, error('invalid_scope'), noStore))).not.toEqual([]);
  });

  it('token answers without Cache-Control no-store are a violation', () => {
    const oauth = { error: 'invalid_scope', error_description: ERROR_MESSAGES.invalid_scope };
    const cached = { 'Cache-Control': 'max-age=60', Pragma: 'no-cache' };
    expect(responseViolations(observed('POST', API_PATHS.token, 400, oauth, cached)).join()).toMatch(/header Cache-Control/);
  });

  it('429 needs Retry-After; 303 needs Location and no body; 405 needs the exact Allow', () => {
    expect(responseViolations(observed('POST', API_PATHS.waitlist, 429, error('rate_limited')))).toEqual(['missing header Retry-After']);
    expect(responseViolations(observed('POST', API_PATHS.waitlist, 429, error('rate_limited'), { 'Retry-After': '12' }))).toEqual([]);
    expect(responseViolations(observed('POST', API_PATHS.waitlist, 303, undefined, { Location: THANKS_PATHS.en }))).toEqual([]);
    expect(responseViolations(observed('POST', API_PATHS.waitlist, 303, undefined))).toEqual(['missing header Location']);
    expect(responseViolations(observed('DELETE', API_PATHS.status, 405, error('method_not_allowed'), { Allow: 'GET, HEAD' }))).toEqual([]);
    expect(responseViolations(observed('DELETE', API_PATHS.status, 405, error('method_not_allowed'), { Allow: 'GET' }))).not.toEqual([]);
  });

  it('an undocumented method answered with anything but 405 is a violation', () => {
    expect(responseViolations(observed('DELETE', API_PATHS.status, 200, error('method_not_allowed'))).join()).toMatch(/expected 405/);
  });

  it('stats 401 needs a Bearer challenge', () => {
    expect(responseViolations(observed('GET', API_PATHS.stats, 401, error('unauthorized')))).toEqual(['missing header WWW-Authenticate']);
    expect(responseViolations(observed('GET', API_PATHS.stats, 401, error('unauthorized'), { 'WWW-Authenticate': 'Basic realm="x"' }))).not.toEqual([]);
    expect(responseViolations(observed('GET', API_PATHS.stats, 401, error('unauthorized'), { 'WWW-Authenticate': 'Bearer realm="api"' }))).toEqual([]);
  });

  it('HEAD is checked against GET: headers required, body must be empty', () => {
    expect(responseViolations(observed('HEAD', API_PATHS.status, 200, undefined))).toEqual([]);
    const res = observed('HEAD', API_PATHS.status, 200, undefined);
    res.headers.delete('X-API-Version');
    expect(responseViolations(res)).toEqual(['missing header X-API-Version']);
  });

  it('a JSON answer with another content type is a violation', () => {
    const res = observed('POST', API_PATHS.waitlist, 200, { accepted: true }, { 'Content-Type': 'text/plain' });
    expect(responseViolations(res).join()).toMatch(/content type text\/plain/);
  });

  it('unknown API paths must answer 404 with an Error body and the common headers', () => {
    expect(responseViolations(observed('GET', '/api/v1/prices', 404, error('not_found')))).toEqual([]);
    expect(responseViolations(observed('GET', '/sandbox/api/v1/login?x=1', 404, error('not_found')))).toEqual([]);
    expect(responseViolations(observed('GET', '/api/v1/prices', 200, { prices: [] })).join()).toMatch(/expected 404/);
    expect(responseViolations(observed('GET', '/api/v1/prices', 404, { error: 'nope' }))).not.toEqual([]);
  });

  it('paths outside the API tree are not described by the document and pass through', () => {
    expect(responseViolations(observed('GET', '/developers/', 200, undefined))).toEqual([]);
  });
});
