/**
 * A row of the `waitlist` table (store/postgres/schema.ts) and the record it stands for: the same
 * fields as the JSON store's record, in the same key order, so an export prints identical lines
 * from both engines.
 */
import type { WaitlistRecord } from '../../domain/record.ts';

export const RECORD_COLUMNS =
  'email, created_at, consent_at, updated_at, lang, role, building, source, consent_form, consent_channel, consent_lang, consent_text_version, ' +
  'invite_state, invite_claimed_at, invited_at, invite_message_id, invite_error';

/** The columns by their type as node-postgres reads them (timestamptz as Date, NULL as null). */
export type RecordRow = Record<'email' | 'lang' | 'consent_form' | 'consent_channel' | 'consent_lang' | 'consent_text_version', string> &
  Record<'role' | 'building' | 'source' | 'invite_state' | 'invite_message_id' | 'invite_error', string | null> &
  Record<'created_at' | 'consent_at' | 'updated_at', Date> &
  Record<'invite_claimed_at' | 'invited_at', Date | null>;

/** A row as the record the JSON store keeps, keys in the schema's order (domain/record.ts). */
export function recordFromRow(row: RecordRow): WaitlistRecord {
  const record: Record<string, unknown> = {
    email: row.email,
    createdAt: row.created_at.toISOString(),
    consentAt: row.consent_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
    lang: row.lang,
  };
  if (row.role !== null) record.role = row.role;
  if (row.building !== null) record.building = row.building;
  if (row.source !== null) record.source = row.source;
  record.consent = { form: row.consent_form, channel: row.consent_channel, lang: row.consent_lang, textVersion: row.consent_text_version };
  if (row.invite_state !== null) {
    const invitation: Record<string, unknown> = { state: row.invite_state, claimedAt: row.invite_claimed_at?.toISOString() };
    if (row.invited_at !== null) invitation.invitedAt = row.invited_at.toISOString();
    invitation.messageId = row.invite_message_id;
    if (row.invite_error !== null) invitation.error = row.invite_error;
    record.invitation = invitation;
  }
  return record as WaitlistRecord;
}
