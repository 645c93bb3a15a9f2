/**
 * A row of the `waitlist` table (store/postgres/schema.ts) and the record it stands for: the same
 * fields as the JSON store's record, in the same key order, so an export prints identical lines
 * from both engines.
 */
import type { WaitlistRecord } from '../../domain/record.ts';

export const RECORD_COLUMNS = 'email, created_at, consent_at, updated_at, lang, role, building, source, consent_form, consent_channel, consent_lang, consent_text_version';

export interface RecordRow {
  email: string;
  created_at: Date;
  consent_at: Date;
  updated_at: Date;
  lang: string;
  role: string | null;
  building: string | null;
  source: string | null;
  consent_form: string;
  consent_channel: string;
  consent_lang: string;
  consent_text_version: string;
}

/** A row as the record the JSON store keeps, with the same key order (an export is identical). */
export function recordFromRow(row: RecordRow): WaitlistRecord {
  const record = {
    email: row.email,
    createdAt: row.created_at.toISOString(),
    consentAt: row.consent_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
    lang: row.lang,
    consent: { form: row.consent_form, channel: row.consent_channel, lang: row.consent_lang, textVersion: row.consent_text_version },
  } as WaitlistRecord;
  if (row.role !== null) record.role = row.role as WaitlistRecord['role'];
  if (row.building !== null) record.building = row.building as WaitlistRecord['building'];
  if (row.source !== null) record.source = row.source as WaitlistRecord['source'];
  return record;
}
