/**
 * Validation of a sign-up after parsing, in the contract's order (docs/api.md): the schema
 * WaitlistSignup decides; this maps its issues to the contract's codes. Contract part 2: an unknown
 * field is rejected, never ignored; names are checked against the schema's own fields into a
 * null-prototype object, so `__proto__` can neither set a prototype nor slip through unrejected.
 */
import { DEFAULT_LANG, FORM_CONSENT_VALUES, LANGS, WaitlistSignup, type Lang } from '../../contract/index.ts';
import { normaliseEmail } from './email.ts';

export type SignupInput =
  | { channel: 'json'; value: unknown }
  | { channel: 'form'; fields: ReadonlyMap<string, string> };

type SignupCheck =
  | { outcome: 'valid'; signup: WaitlistSignup }
  | { outcome: 'discard'; lang: Lang }
  | { outcome: 'invalid'; code: 'invalid_request' | 'invalid_email' | 'consent_required' };

/** Form fields whose empty value means "not answered" (an unselected <select>). */
const OPTIONAL_CHOICES = ['role', 'building', 'source', 'lang'];
const FIELDS: ReadonlySet<string> = new Set(Object.keys(WaitlistSignup.shape));

export function checkSignup(input: SignupInput): SignupCheck {
  const read = fieldsOf(input);
  if (!read) return { outcome: 'invalid', code: 'invalid_request' };
  const candidate = read.fields;

  // Contract part 2: a non-empty honeypot ends the request silently, before any other check.
  if ('website' in candidate && candidate.website !== '') {
    const lang = (LANGS as readonly unknown[]).includes(candidate.lang) ? (candidate.lang as Lang) : DEFAULT_LANG;
    return { outcome: 'discard', lang };
  }
  if (read.unknownName) return { outcome: 'invalid', code: 'invalid_request' };
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

/** The fields as sent, in an object without a prototype, and whether any name is not in the schema. */
function fieldsOf(input: SignupInput) {
  let entries: [string, unknown][];
  if (input.channel === 'json') {
    const { value } = input;
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
    // JSON.parse makes `"__proto__"` an own property, so Object.entries sees every name sent.
    entries = Object.entries(value);
  } else {
    entries = [...input.fields].filter(([name, value]) => !(OPTIONAL_CHOICES.includes(name) && value === ''));
    entries = entries.map(([name, value]) => [name, name === 'consent' && (FORM_CONSENT_VALUES as readonly unknown[]).includes(value) ? true : value]);
  }
  const fields: Record<string, unknown> = Object.create(null);
  let unknownName = false;
  for (const [name, value] of entries) {
    if (FIELDS.has(name)) fields[name] = value;
    else unknownName = true;
  }
  return { fields, unknownName };
}
