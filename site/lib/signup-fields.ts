/**
 * Names of the WaitlistSignup fields as used by the form and its script. The contract exports
 * them only as a zod schema, which the site must not bundle; the mapped type below makes
 * `tsc` fail when a field is renamed, added or removed in api/contract/schemas.ts.
 */
import type { Source } from '../../api/contract/enums.ts';
import type { WaitlistSignup } from '../../api/contract/schemas.ts';

export const FIELD: { readonly [K in keyof Required<WaitlistSignup>]: K } = {
  email: 'email',
  consent: 'consent',
  role: 'role',
  building: 'building',
  source: 'source',
  lang: 'lang',
  website: 'website',
};

/** The `source` value of each form on the page, checked against the contract's SOURCES. */
export const FORM_SOURCE: { readonly [K in Source]: K } = { hero: 'hero', cta: 'cta' };
