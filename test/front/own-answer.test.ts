/**
 * The answers the front gives itself on an API path have the shape and fields of the route at that
 * path, as the OpenAPI document promises for every answer of the operation.
 */
import { describe, expect, it } from 'vitest';
import { API_PATHS, ENV_PREFIX, ERROR_MESSAGES } from '../../api/contract/index.ts';
import { ownApiError, routeOfTarget } from '../../api/front/own-answer.ts';

const fields = (headers: string[]) => Object.fromEntries(Array.from({ length: headers.length / 2 }, (_, i) => [headers[2 * i]!.toLowerCase(), headers[2 * i + 1]!]));

describe("the front's own API answers", () => {
  it('own answer: a 400 on the token endpoint is {error, error_description} with no-store and no-cache (RFC 6749 §5.1, §5.2)', () => {
    for (const target of [API_PATHS.token, `${ENV_PREFIX.sandbox}${API_PATHS.token}?grant_type=x`, '/api/v1/oauth/./token']) {
      const answer = ownApiError('invalid_request', [], target);
      expect(JSON.parse(answer.body), target).toEqual({ error: 'invalid_request', error_description: ERROR_MESSAGES.invalid_request });
      expect(fields(answer.headers)).toMatchObject({ 'cache-control': 'no-store', pragma: 'no-cache', 'x-api-version': '1' });
    }
  });

  it('own answer: a 500 on the token endpoint keeps the Error shape (contract part 7) and still says no-store and no-cache', () => {
    const answer = ownApiError('internal_error', [], API_PATHS.token);
    expect(JSON.parse(answer.body)).toEqual({ error: 'internal_error', message: ERROR_MESSAGES.internal_error });
    expect(fields(answer.headers)).toMatchObject({ 'cache-control': 'no-store', pragma: 'no-cache' });
  });

  it('own answer: every answer on the deprecated alias says Deprecation and links its successor in the same environment', () => {
    const answer = fields(ownApiError('internal_error', [], `${ENV_PREFIX.sandbox}${API_PATHS.waitlistLegacy}`).headers);
    expect(answer.deprecation).toMatch(/^@\d+$/);
    expect(answer.link).toBe(`<${ENV_PREFIX.sandbox}${API_PATHS.waitlist}>; rel="successor-version"`);
  });

  it('own answer: a path no route owns, or one that cannot be read, gets the plain Error shape with no route fields', () => {
    for (const target of ['/api/v1/prices', '', 'http://x/api/v1/oauth/token', '/api/v1/oauth/token/']) {
      const answer = ownApiError('invalid_request', [], target);
      expect(JSON.parse(answer.body), target).toEqual({ error: 'invalid_request', message: ERROR_MESSAGES.invalid_request });
      expect(fields(answer.headers).pragma).toBeUndefined();
    }
    expect(routeOfTarget('/%61pi/v1/oauth/token')?.route.id).toBe('createToken');
  });
});
