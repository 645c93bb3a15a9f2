/**
 * Evidence of consent kept with every record: which form, which language and which version of the
 * consent text the address owner agreed to.
 */
import type { Lang, Source } from '../../contract/index.ts';

/**
 * Version of the consent sentence shown next to the sign-up forms. Bump it (a date) whenever the
 * wording of that sentence changes, so each record says which text its owner agreed to.
 */
export const CONSENT_TEXT_VERSION = '2026-11-01';

/** How the sign-up arrived: a JSON call or a form post. */
export type Channel = 'json' | 'form';

export interface ConsentEvidence {
  /** Which site form was used; `api` when the call named none. */
  form: Source | 'api';
  channel: Channel;
  lang: Lang;
  textVersion: string;
}

export function consentEvidence(source: Source | undefined, channel: Channel, lang: Lang): ConsentEvidence {
  return { form: source ?? 'api', channel, lang, textVersion: CONSENT_TEXT_VERSION };
}
