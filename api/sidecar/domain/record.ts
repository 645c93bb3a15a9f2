/** A waitlist record, the evidence of consent it keeps, and how a sign-up is merged into it (contract part 3: a repeated address updates its record). Pure. */
import { z } from 'zod';
import { BUILDING, CONSENT_TEXT_VERSION, DEFAULT_LANG, EMAIL_MAX_LENGTH, LANGS, ROLES, SOURCES } from '../../contract/index.ts';
import type { Lang, Source, WaitlistSignup } from '../../contract/index.ts';
import { Invitation } from './invitation.ts';

const isoTime = z.iso.datetime();

/** How the sign-up arrived: a JSON call, a form post or an MCP tool call. */
export const CHANNELS = ['json', 'form', 'mcp'] as const;
export type Channel = (typeof CHANNELS)[number];

/** Evidence of consent kept with every record: which form, language and version of the consent text the address owner agreed to. */
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

export const WaitlistRecord = z
  .object({
    /** Lower-cased, IDN domain in ASCII form (domain/email.ts). */
    email: z.email().max(EMAIL_MAX_LENGTH),
    /** First sign-up; never changes. */
    createdAt: isoTime,
    /** Latest consent. */
    consentAt: isoTime,
    updatedAt: isoTime,
    lang: z.enum(LANGS),
    role: z.enum(ROLES).optional(),
    building: z.enum(BUILDING).optional(),
    source: z.enum(SOURCES).optional(),
    /** Evidence of the latest consent. */
    consent: ConsentEvidence,
    /** The invitation (domain/invitation.ts); absent until an invite run claims the member. */
    invitation: Invitation.optional(),
  })
  .strict();
export type WaitlistRecord = z.infer<typeof WaitlistRecord>;

/** New record, or the existing one updated: new answers win, absent ones keep the old, consent moves to this one, the first sign-up time stays. */
export function mergeSignup(existing: WaitlistRecord | undefined, signup: WaitlistSignup, channel: Channel, at: string): WaitlistRecord {
  const role = signup.role ?? existing?.role;
  const building = signup.building ?? existing?.building;
  const source = signup.source ?? existing?.source;
  // Keys in the schema's order, the order a parsed file has: a record is the same text whether it
  // was just merged or read back (exports, the file, PostgreSQL rows).
  return {
    email: signup.email,
    createdAt: existing?.createdAt ?? at,
    consentAt: at,
    updatedAt: at,
    lang: signup.lang ?? existing?.lang ?? DEFAULT_LANG,
    ...(role ? { role } : {}),
    ...(building ? { building } : {}),
    ...(source ? { source } : {}),
    consent: consentEvidence(signup.source, channel, signup.lang ?? DEFAULT_LANG),
    // A new sign-up of an invited member must not make them invitable again.
    ...(existing?.invitation ? { invitation: existing.invitation } : {}),
  };
}
