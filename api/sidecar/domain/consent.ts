/**
 * Evidence of consent kept with every record: which form, which language and which version of the
 * consent text the address owner agreed to.
 */
import { CONSENT_TEXT_VERSION, type Lang, type Source } from '../../contract/index.ts';
import type { WaitlistRecord } from './record.ts';

/** How the sign-up arrived: a JSON call, a form post or an MCP tool call. */
export const CHANNELS = ['json', 'form', 'mcp'] as const;
export type Channel = (typeof CHANNELS)[number];

/** `form`: which site form was used; `api` when the call named none. */
export function consentEvidence(source: Source | undefined, channel: Channel, lang: Lang): WaitlistRecord['consent'] {
  return { form: source ?? 'api', channel, lang, textVersion: CONSENT_TEXT_VERSION };
}
