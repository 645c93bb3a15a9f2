/**
 * A row of the `waitlist` table (store/postgres/schema.ts) and the record it stands for: the same
 * fields as the JSON store's record, in the same key order, so an export prints identical lines
 * from both engines. One table of columns maps both ways (reads, and the migration's writes).
 */
import type { WaitlistRecord } from '../../domain/record.ts';

/** Each column in the schema's order, which is the record's key order: the field it holds, [key] or [group, key] (consent, invitation). */
const FIELDS: Record<string, readonly [keyof WaitlistRecord, string?]> = {
  email: ['email'],
  created_at: ['createdAt'],
  consent_at: ['consentAt'],
  updated_at: ['updatedAt'],
  lang: ['lang'],
  role: ['role'],
  building: ['building'],
  source: ['source'],
  consent_form: ['consent', 'form'],
  consent_channel: ['consent', 'channel'],
  consent_lang: ['consent', 'lang'],
  consent_text_version: ['consent', 'textVersion'],
  invite_state: ['invitation', 'state'],
  invite_claimed_at: ['invitation', 'claimedAt'],
  invited_at: ['invitation', 'invitedAt'],
  invite_message_id: ['invitation', 'messageId'],
  invite_error: ['invitation', 'error'],
};

export const RECORD_COLUMNS = Object.keys(FIELDS).join(', ');

/** A row as node-postgres reads it (timestamptz as Date, NULL as null) as the record the JSON store keeps: NULL is an absent field. */
export function recordFromRow(row: Record<string, unknown>): WaitlistRecord {
  const record: Record<string, unknown> = {};
  for (const [column, [key, inner]] of Object.entries(FIELDS)) {
    const raw = row[column];
    if (raw === null) continue;
    const value = raw instanceof Date ? raw.toISOString() : raw;
    if (inner === undefined) record[key] = value;
    else ((record[key] ??= {}) as Record<string, unknown>)[inner] = value;
  }
  return record as WaitlistRecord;
}

/** The records as one array per column, in RECORD_COLUMNS' order (an absent field: NULL). */
export function columnsOf(records: readonly WaitlistRecord[]): unknown[][] {
  return Object.values(FIELDS).map(([key, inner]) =>
    records.map((record) => (inner === undefined ? record[key] : (record[key] as Record<string, unknown> | undefined)?.[inner]) ?? null),
  );
}
