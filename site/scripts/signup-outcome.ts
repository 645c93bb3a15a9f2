/**
 * The pure part of the sign-up script: which JSON to send, and what an API answer means for the
 * page. No DOM here, so the rules are unit-tested (test/site/signup-outcome.test.ts).
 */
import type { ErrorCode } from '../../api/contract/errors.ts';
import { FIELD } from '../lib/signup-fields.ts';

export type FieldName = typeof FIELD.email | typeof FIELD.consent;

export type Outcome =
  | { kind: 'success' }
  | { kind: 'field'; field: FieldName; code: ErrorCode }
  | { kind: 'rateLimited'; seconds?: number }
  | { kind: 'error' };

/** Contract part 7: the 422 codes that belong to one field, and that field. */
export const FIELD_ERRORS: Partial<Record<ErrorCode, FieldName>> = {
  invalid_email: FIELD.email,
  consent_required: FIELD.consent,
};

const TOO_MANY_REQUESTS = 429;

/** The JSON body: empty answers are left out (the enums have no empty value), consent is a boolean. */
export function signupBody(entries: Iterable<[string, unknown]>, consent: boolean): Record<string, string | boolean> {
  const body: Record<string, string | boolean> = {};
  for (const [name, value] of entries) {
    if (typeof value === 'string' && value !== '') body[name] = value;
  }
  body[FIELD.consent] = consent;
  return body;
}

/** Retry-After as whole seconds: delta-seconds or an HTTP-date (RFC 9110 §10.2.3). */
export function retryAfterSeconds(value: string | null, now: number): number | undefined {
  const trimmed = value?.trim();
  if (!trimmed) return undefined;
  if (/^\d+$/.test(trimmed)) return Number(trimmed);
  const date = Date.parse(trimmed);
  return Number.isNaN(date) ? undefined : Math.max(1, Math.ceil((date - now) / 1000));
}

/**
 * Fields to flag before sending, in page order: the browser's own checks of the e-mail field
 * (required, type, pattern, maxlength) and the consent box, which must be ticked.
 */
export function fieldsToFix(emailValid: boolean, consentChecked: boolean): FieldName[] {
  return [...(emailValid ? [] : [FIELD.email]), ...(consentChecked ? [] : [FIELD.consent])];
}

/** What the page shows for an answer: status, the body's `error` code and the Retry-After header. */
export function outcomeOf(status: number, code: string | undefined, retryAfter: string | null, now: number): Outcome {
  if (status >= 200 && status < 300) return { kind: 'success' };
  const field = code === undefined ? undefined : FIELD_ERRORS[code as ErrorCode];
  if (field) return { kind: 'field', field, code: code as ErrorCode };
  if (status === TOO_MANY_REQUESTS) return { kind: 'rateLimited', seconds: retryAfterSeconds(retryAfter, now) };
  return { kind: 'error' };
}
