/**
 * A member's invitation, kept in their record, at most once (docs/operator.md, "How a run works"):
 * claimed durably before the message goes to the mail server, confirmed when it accepts it (250).
 * Pure: times and ids are passed in.
 */
import { z } from 'zod';
import { BUILDING, LANGS, ROLES, SOURCES, type Building, type Lang, type Role, type Source } from '../../contract/index.ts';

/** The longest server reply kept for a failed invitation (a reply may quote the whole message). */
const MAX_ERROR_LENGTH = 500;

const isoTime = z.iso.datetime();

export const Invitation = z
  .object({
    /** claimed: handed (or about to be handed) to the mail server; sent: accepted (250); failed: refused for good (5xx). */
    state: z.enum(['claimed', 'sent', 'failed']),
    /** When the run claimed the member. */
    claimedAt: isoTime,
    /** When the mail server accepted the message; only when sent. */
    invitedAt: isoTime.optional(),
    /** The message's Message-ID (RFC 5322 §3.6.4, with its angle brackets), to find it in the mail server's log. */
    messageId: z.string().min(3),
    /** The mail server's reply; only when failed. */
    error: z.string().max(MAX_ERROR_LENGTH).optional(),
  })
  .strict();
export type Invitation = z.infer<typeof Invitation>;

/** Which members an invite run may pick (every given field must match). */
export const InviteFilterSchema = z
  .object({ lang: z.enum(LANGS).optional(), role: z.enum(ROLES).optional(), building: z.enum(BUILDING).optional(), source: z.enum(SOURCES).optional() })
  .strict();
export type InviteFilter = z.infer<typeof InviteFilterSchema>;

/** One claim of a run: the next `count` members in sign-up order, or (resend) those left claimed before `claimedBefore`. */
export const InviteClaimSchema = z
  .object({
    count: z.number().int().min(1).max(10_000),
    filter: InviteFilterSchema,
    /** The claim time (ISO). */
    at: isoTime,
    /** The domain of the Message-IDs given to the claimed members (the operator's). */
    messageIdDomain: z.string().regex(/^[A-Za-z0-9.-]+$/),
    /** Set: re-claims members left `claimed` (never confirmed) by a run that started before this time, instead of never-invited ones. */
    claimedBefore: isoTime.optional(),
    /** Members the run left out (its deliverability check), passed over. */
    except: z.array(z.string()).optional(),
  })
  .strict();
export type InviteClaim = z.infer<typeof InviteClaimSchema>;

/** Whether a record matches the filter (the one definition both engines follow). */
export function matchesInviteFilter(record: { lang: Lang; role?: Role; building?: Building; source?: Source }, filter: InviteFilter): boolean {
  return (['lang', 'role', 'building', 'source'] as const).every((key) => filter[key] === undefined || record[key] === filter[key]);
}

/** Whether a claim may pick this record: never invited, or (resend) claimed by an earlier run and never confirmed. */
export function claimable(invitation: Invitation | undefined, claim: Pick<InviteClaim, 'claimedBefore'>): boolean {
  if (claim.claimedBefore === undefined) return invitation === undefined;
  return invitation?.state === 'claimed' && Date.parse(invitation.claimedAt) < Date.parse(claim.claimedBefore);
}

/** Whether the record still holds the run's claim: claimed under this Message-ID, not erased, sent or re-claimed. */
export function holdsClaim(record: { invitation?: Invitation } | undefined, messageId: string): boolean {
  return record?.invitation?.state === 'claimed' && record.invitation.messageId === messageId;
}

/** A fresh Message-ID on the operator's domain: `<uuid@domain>` (PostgreSQL builds the same with gen_random_uuid()). */
export function newMessageId(uuid: string, domain: string): string {
  return `<${uuid}@${domain}>`;
}

/** A server reply as kept in the record: one line, at most MAX_ERROR_LENGTH characters. */
export function failureText(reply: string): string {
  const line = reply.replace(/\s+/g, ' ').trim() || 'refused without a reply';
  return line.length > MAX_ERROR_LENGTH ? `${line.slice(0, MAX_ERROR_LENGTH - 1)}…` : line;
}
