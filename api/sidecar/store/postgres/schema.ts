/** The PostgreSQL schema, created once at start under an advisory lock (docs/api.md, "PostgreSQL (`DATABASE_URL`)"). */
import type pg from 'pg';
import { StartupError } from '../errors.ts';
import { STATS_SCHEMA_SQL } from './stats-schema.ts';

/** Arbitrary but fixed: the advisory lock key of schema changes ("WAIT" in ASCII). */
const SCHEMA_LOCK_KEY = 0x57414954;

export const SCHEMA_VERSION = 1;

const TABLES_SQL = `
CREATE TABLE waitlist (
  email text PRIMARY KEY,                -- normalised: lower-cased, IDN domain in ASCII (domain/email.ts)
  created_at timestamptz NOT NULL,       -- first sign-up
  consent_at timestamptz NOT NULL,       -- latest consent
  updated_at timestamptz NOT NULL,
  lang text NOT NULL,
  role text,
  building text,
  source text,
  consent_form text NOT NULL,            -- evidence of the latest consent (domain/record.ts)
  consent_channel text NOT NULL,
  consent_lang text NOT NULL,
  consent_text_version text NOT NULL,
  -- The invitation (waitlist-store.ts): all NULL until a run claims the member.
  invite_state text CHECK (invite_state IN ('claimed', 'sent', 'failed')),
  invite_claimed_at timestamptz,
  invited_at timestamptz,
  invite_message_id text,
  invite_error text
);
CREATE INDEX waitlist_created_at ON waitlist (created_at);
-- A claim reads only the head of the never-invited queue at any size; the claimed stay few.
CREATE INDEX waitlist_never_invited ON waitlist (created_at, email) WHERE invite_state IS NULL;
CREATE INDEX waitlist_invite_claimed ON waitlist (created_at, email) WHERE invite_state = 'claimed';

CREATE TABLE oauth_clients (
  id text PRIMARY KEY,
  name text NOT NULL,
  created_at timestamptz NOT NULL,
  scopes text[] NOT NULL,
  secret_hash text NOT NULL              -- scrypt$N$r$p$salt$hash; the secret itself is never stored
);
CREATE TABLE token_keys (
  environment text PRIMARY KEY,          -- production | sandbox
  key bytea NOT NULL CHECK (length(key) >= 32),
  created_at timestamptz NOT NULL DEFAULT now()
);`;

/** Creates the schema unless it is there; returns the version it found (0: none). */
export async function migrateSchema(pool: pg.Pool): Promise<number> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    await client.query('SELECT pg_advisory_xact_lock($1)', [SCHEMA_LOCK_KEY]);
    await client.query('CREATE TABLE IF NOT EXISTS schema_version (version integer PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())');
    const { rows } = await client.query<{ version: number | null }>('SELECT max(version) AS version FROM schema_version');
    const found = rows[0]?.version ?? 0;
    if (found > SCHEMA_VERSION) {
      throw new StartupError(
        `The database's schema is version ${found}, newer than this program's ${SCHEMA_VERSION}: ` +
          'it was upgraded by a newer release. Run that release, or restore a backup taken before the upgrade.',
      );
    }
    if (found === 0) {
      await client.query(TABLES_SQL + STATS_SCHEMA_SQL);
      await client.query('INSERT INTO schema_version (version) VALUES ($1)', [SCHEMA_VERSION]);
    }
    await client.query('COMMIT');
    return found;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {});
    throw error;
  } finally {
    client.release();
  }
}
