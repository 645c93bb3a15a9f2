import { describe, expect, it } from 'vitest';
import { ERROR_STATUS, type ErrorCode } from '../../api/contract/errors.ts';
import { BUILDING, LANGS, SOURCES } from '../../api/contract/enums.ts';
import { FIELD } from '../../site/lib/signup-fields.ts';
import { fieldsToFix, outcomeOf, retryAfterSeconds, signupBody, type Outcome } from '../../site/scripts/signup-outcome.ts';

const NOW = Date.parse('2026-11-22T12:00:00Z');

describe('sign-up script outcomes', () => {
  const cases: [string, number, ErrorCode | undefined, string | null, Outcome][] = [
    ['200 accepted -> success', 200, undefined, null, { kind: 'success' }],
    ['422 invalid_email -> error on the email field', ERROR_STATUS.invalid_email, 'invalid_email', null, { kind: 'field', field: FIELD.email, code: 'invalid_email' }],
    ['422 consent_required -> error on the consent field', ERROR_STATUS.consent_required, 'consent_required', null, { kind: 'field', field: FIELD.consent, code: 'consent_required' }],
    ['429 with Retry-After: 17 -> wait 17 s', ERROR_STATUS.rate_limited, 'rate_limited', '17', { kind: 'rateLimited', seconds: 17 }],
    ['429 with an HTTP-date Retry-After 30 s ahead -> wait 30 s', 429, 'rate_limited', 'Sun, 22 Nov 2026 12:00:30 GMT', { kind: 'rateLimited', seconds: 30 }],
    ['429 without Retry-After -> rate limited, no number', 429, undefined, null, { kind: 'rateLimited', seconds: undefined }],
    ['400 invalid_request -> generic error', ERROR_STATUS.invalid_request, 'invalid_request', null, { kind: 'error' }],
    ['413 payload_too_large -> generic error', ERROR_STATUS.payload_too_large, 'payload_too_large', null, { kind: 'error' }],
    ['500 without a JSON body -> generic error', 500, undefined, null, { kind: 'error' }],
    ['502 from a proxy -> generic error', 502, undefined, null, { kind: 'error' }],
  ];
  for (const [name, status, code, retryAfter, expected] of cases) {
    it(`outcome: ${name}`, () => expect(outcomeOf(status, code, retryAfter, NOW)).toEqual(expected));
  }

  it('outcome: a garbled Retry-After gives no number rather than NaN', () => {
    expect(retryAfterSeconds('soon', NOW)).toBeUndefined();
    expect(retryAfterSeconds(' 5 ', NOW)).toBe(5);
  });

  it('before sending: an invalid address and a missing consent are both flagged, e-mail first; a complete form is sent', () => {
    expect(fieldsToFix(false, false)).toEqual([FIELD.email, FIELD.consent]);
    expect(fieldsToFix(true, false)).toEqual([FIELD.consent]);
    expect(fieldsToFix(false, true)).toEqual([FIELD.email]);
    expect(fieldsToFix(true, true)).toEqual([]);
  });

  it('body: empty optional answers are left out and consent is a boolean', () => {
    const entries: [string, unknown][] = [
      [FIELD.email, 'a@example.com'],
      [FIELD.role, ''],
      [FIELD.building, BUILDING[1]],
      [FIELD.consent, 'true'],
      [FIELD.source, SOURCES[0]],
      [FIELD.lang, LANGS[1]],
      [FIELD.website, ''],
    ];
    expect(signupBody(entries, true)).toEqual({
      [FIELD.email]: 'a@example.com',
      [FIELD.building]: BUILDING[1],
      [FIELD.consent]: true,
      [FIELD.source]: SOURCES[0],
      [FIELD.lang]: LANGS[1],
    });
    expect(signupBody([[FIELD.email, 'a@example.com']], false)).toEqual({ [FIELD.email]: 'a@example.com', [FIELD.consent]: false });
  });

  it('body: a filled honeypot is sent as it is, so the API can discard the request', () => {
    expect(signupBody([[FIELD.website, 'http://spam.example']], true)).toMatchObject({ [FIELD.website]: 'http://spam.example' });
  });
});
