/**
 * Validation of a sign-up after parsing, in the contract's order (docs/api.md):
 * honeypot -> unknown field, invalid enum value or wrong type (invalid_request) -> e-mail
 * (invalid_email) -> consent (consent_required). The contract schema WaitlistSignup decides;
 * this module only prepares the input and maps the schema's issues to the contract's codes.
 */
import { DEFAULT_LANG, LANGS, WaitlistSignup, type Lang } from '../../contract/index.ts';
import { normaliseEmail } from './email.ts';

export type SignupInput =
  | { channel: 'json'; value: unknown }
  | { channel: 'form'; fields: ReadonlyMap<string, string> };

export type SignupCheck =
  | { outcome: 'valid'; signup: WaitlistSignup }
  | { outcome: 'discard'; lang: Lang }
  | { outcome: 'invalid'; code: 'invalid_request' | 'invalid_email' | 'consent_required' };

/** Form fields whose empty value means "not answered" (an unselected <select>). */
const OPTIONAL_CHOICES = ['role', 'building', 'source', 'lang'];
/** A checked checkbox sends `on` (its default value); `true` is what a script would send. */
const FORM_CONSENT = ['true', 'on'];

export function checkSignup(input: SignupInput): SignupCheck {
  const candidate = input.channel === 'json' ? fromJson(input.value) : fromForm(input.fields);
  if (!candidate) return { outcome: 'invalid', code: 'invalid_request' };

  // Contract part 2: a non-empty honeypot ends the request silently, before any other check.
  if ('website' in candidate && candidate.website !== '') {
    const lang = (LANGS as readonly unknown[]).includes(candidate.lang) ? (candidate.lang as Lang) : DEFAULT_LANG;
    return { outcome: 'discard', lang };
  }
  if (typeof candidate.email === 'string') candidate.email = normaliseEmail(candidate.email);

  const result = WaitlistSignup.safeParse(candidate);
  if (result.success) return { outcome: 'valid', signup: result.data };

  let emailBad = false;
  let consentBad = false;
  for (const issue of result.error.issues) {
    const field = issue.path[0];
    if (field === 'email' && (candidate.email === undefined || typeof candidate.email === 'string')) emailBad = true;
    else if (field === 'consent') consentBad = true;
    else return { outcome: 'invalid', code: 'invalid_request' };
  }
  return { outcome: 'invalid', code: emailBad ? 'invalid_email' : consentBad ? 'consent_required' : 'invalid_request' };
}

function fromJson(value: unknown): Record<string, unknown> | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  return { ...(value as Record<string, unknown>) };
}

function fromForm(fields: ReadonlyMap<string, string>): Record<string, unknown> {
  const candidate: Record<string, unknown> = {};
  for (const [name, value] of fields) {
    if (OPTIONAL_CHOICES.includes(name) && value === '') continue;
    candidate[name] = name === 'consent' && FORM_CONSENT.includes(value) ? true : value;
  }
  return candidate;
}
