/**
 * The sign-up's one statement: an `INSERT … ON CONFLICT (email) DO UPDATE` that merges exactly as
 * domain/record.ts mergeSignup does, the one definition of the rule: test/api/postgres-store.test.ts
 * runs the same repeated sign-ups through both stores and asks for identical records.
 */
import type pg from 'pg';
import { DEFAULT_LANG, type WaitlistSignup } from '../../../contract/index.ts';
import { consentEvidence, type Channel } from '../../domain/consent.ts';

/** Merge rules of mergeSignup: new answers win, absent ones keep the old, created_at stays (the
 * earlier of the two: with concurrent instances the first to commit need not be the first to
 * arrive; with one writer it is always the existing one), the consent time and evidence are this
 * sign-up's. $3 (the sign-up's lang) is NULL when it named none;
 * a new row then takes $9, the consent language (the sign-up's or DEFAULT_LANG). */
const UPSERT_SQL = `
INSERT INTO waitlist AS w (email, created_at, consent_at, updated_at, lang, role, building, source,
                           consent_form, consent_channel, consent_lang, consent_text_version)
VALUES ($1, $2, $2, $2, $9, $4, $5, $6, $7, $8, $9, $10)
ON CONFLICT (email) DO UPDATE SET
  created_at = least(w.created_at, EXCLUDED.created_at),
  consent_at = EXCLUDED.consent_at,
  updated_at = EXCLUDED.updated_at,
  lang = coalesce($3::text, w.lang),
  role = coalesce(EXCLUDED.role, w.role),
  building = coalesce(EXCLUDED.building, w.building),
  source = coalesce(EXCLUDED.source, w.source),
  consent_form = EXCLUDED.consent_form,
  consent_channel = EXCLUDED.consent_channel,
  consent_lang = EXCLUDED.consent_lang,
  consent_text_version = EXCLUDED.consent_text_version`;

/** The named query (parsed and planned once per connection, not per sign-up) for a checked sign-up on `channel` at `at` (ISO time). */
export function upsertQuery(signup: WaitlistSignup, channel: Channel, at: string): pg.QueryConfig {
  const consent = consentEvidence(signup.source, channel, signup.lang ?? DEFAULT_LANG);
  const values = [
    signup.email,
    at,
    signup.lang ?? null,
    signup.role ?? null,
    signup.building ?? null,
    signup.source ?? null,
    consent.form,
    consent.channel,
    consent.lang,
    consent.textVersion,
  ];
  return { name: 'waitlist-upsert', text: UPSERT_SQL, values };
}
