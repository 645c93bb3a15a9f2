/** A waitlist record and how a sign-up is merged into it (contract part 3: a repeated address updates its record). Pure. */
import { z } from 'zod';
import { BUILDING, DEFAULT_LANG, EMAIL_MAX_LENGTH, LANGS, ROLES, SOURCES } from '../../contract/index.ts';
import type { WaitlistSignup } from '../../contract/index.ts';
import { ConsentEvidence, consentEvidence, type Channel } from './consent.ts';
import { Invitation } from './invitation.ts';

const isoTime = z.iso.datetime();

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
