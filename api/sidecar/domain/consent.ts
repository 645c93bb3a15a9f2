/** Evidence of consent kept with every record: which form, language and version of the consent text the address owner agreed to. */
import { z } from 'zod';
import { CONSENT_TEXT_VERSION, LANGS, SOURCES, type Lang, type Source } from '../../contract/index.ts';

/** How the sign-up arrived: a JSON call, a form post or an MCP tool call. */
export const CHANNELS = ['json', 'form', 'mcp'] as const;
export type Channel = (typeof CHANNELS)[number];

export const ConsentEvidence = z
  .object({
    form: z.enum([...SOURCES, 'api']),
    channel: z.enum(CHANNELS),
    lang: z.enum(LANGS),
    textVersion: z.string().min(1),
  })
  .strict();
export type ConsentEvidence = z.infer<typeof ConsentEvidence>;

/** `form`: which site form was used; `api` when the call named none. */
export function consentEvidence(source: Source | undefined, channel: Channel, lang: Lang): ConsentEvidence {
  return { form: source ?? 'api', channel, lang, textVersion: CONSENT_TEXT_VERSION };
}
