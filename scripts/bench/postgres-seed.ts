/**
 * Databases for the PostgreSQL benchmark (scripts/bench/postgres.ts), filled in SQL, never through
 * the API: records with every answer and none, first sign-ups spread over 60 days to the
 * millisecond, written with the statistics' triggers off, as a bulk writer does, so the fill also
 * times the step that computes the counters from the records (stats-schema.ts stats_rebuild).
 */
import pg from 'pg';
import { BUILDING, LANGS, ROLES, SOURCES } from '../../api/contract/index.ts';
import { CONSENT_TEXT_VERSION } from '../../api/sidecar/domain/consent.ts';
import { migrateSchema } from '../../api/sidecar/store/postgres/schema.ts';
import { STATS_TRIGGERS } from '../../api/sidecar/store/postgres/stats-schema.ts';

/** An SQL array of the values and NULL (unanswered), picked by `i`. */
const pick = (values: readonly string[], unanswered: boolean) =>
  `(ARRAY[${[...values.map((v) => `'${v}'`), ...(unanswered ? ['NULL'] : [])].join(', ')}])[1 + i % ${values.length + (unanswered ? 1 : 0)}]`;

const FILL_SQL = `
INSERT INTO waitlist (email, created_at, consent_at, updated_at, lang, role, building, source,
                      consent_form, consent_channel, consent_lang, consent_text_version)
SELECT 'seed' || i || '@example.com', t, t, t, ${pick(LANGS, false)}, ${pick(ROLES, true)}, ${pick(BUILDING, true)},
       ${pick(SOURCES, true)}, 'hero', 'form', 'en', $2
FROM generate_series(1, $1) AS i,
     LATERAL (SELECT date_trunc('milliseconds', now() - (i::float8 / $1) * interval '60 days') AS t) AS times`;

/** Fills `url` with `records` rows, then computes the counters; resolves with that step's milliseconds. */
export async function seedPostgres(url: string, records: number): Promise<{ upgradeMs: number }> {
  const pool = new pg.Pool({ connectionString: url, max: 1 });
  const triggers = (verb: string) => `ALTER TABLE waitlist ${STATS_TRIGGERS.map((name) => `${verb} TRIGGER ${name}`).join(', ')}`;
  try {
    await migrateSchema(pool);
    await pool.query('BEGIN');
    await pool.query(triggers('DISABLE'));
    await pool.query(FILL_SQL, [records, CONSENT_TEXT_VERSION]);
    const started = performance.now();
    await pool.query('SELECT stats_rebuild()');
    const upgradeMs = performance.now() - started;
    await pool.query(triggers('ENABLE'));
    await pool.query('COMMIT');
    await pool.query('VACUUM ANALYZE');
    return { upgradeMs };
  } finally {
    await pool.end();
  }
}

/**
 * A copy of `template` whose sign-ups keep no counters: the triggers and the `created_at` index
 * dropped, the write path of schema version 1 (its statistics are wrong: it is only written to).
 */
export async function copyWithoutCounters(adminUrl: string, template: string, name: string): Promise<string> {
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE "${name}" TEMPLATE "${template}"`);
  } finally {
    await admin.end();
  }
  const url = adminUrl.replace(/\/[^/]*$/, `/${name}`);
  const copy = new pg.Client({ connectionString: url });
  await copy.connect();
  try {
    await copy.query(`DROP TRIGGER stats_insert_delete ON waitlist; DROP TRIGGER stats_update ON waitlist;
                      DROP TRIGGER stats_truncate ON waitlist; DROP INDEX waitlist_created_at`);
    await copy.query('VACUUM ANALYZE');
  } finally {
    await copy.end();
  }
  return url;
}
