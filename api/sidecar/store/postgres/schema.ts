/**
 * The PostgreSQL schema, created and upgraded at start (docs/api.md, "PostgreSQL schema").
 * Migrations are applied in one transaction under a transaction-level advisory lock, so several
 * instances starting at the same time apply each migration exactly once: the others wait for the
 * lock and then find the version already there. `schema_version` holds one row per applied step.
 */
import type pg from 'pg';
import { StartupError } from '../errors.ts';
import { STATS_PENDING_SQL } from './stats-pending.ts';
import { STATS_SCHEMA_SQL } from './stats-schema.ts';

/** Arbitrary but fixed: the advisory lock key of schema changes ("WAIT" in ASCII). */
export const SCHEMA_LOCK_KEY = 0x57414954;

/** Each entry upgrades version i to i + 1. Never edit an applied step: append a new one. */
const MIGRATIONS: readonly string[] = [
  `CREATE TABLE waitlist (
     email text PRIMARY KEY,              -- normalised: lower-cased, IDN domain in ASCII (domain/email.ts)
     created_at timestamptz NOT NULL,      -- first sign-up; never changes
     consent_at timestamptz NOT NULL,      -- latest consent
     updated_at timestamptz NOT NULL,
     lang text NOT NULL,
     role text,
     building text,
     source text,
     consent_form text NOT NULL,           -- evidence of the latest consent (domain/consent.ts)
     consent_channel text NOT NULL,
     consent_lang text NOT NULL,
     consent_text_version text NOT NULL
   );
   CREATE TABLE oauth_clients (
     id text PRIMARY KEY,
     name text NOT NULL,
     created_at timestamptz NOT NULL,
     scopes text[] NOT NULL,
     secret_hash text NOT NULL             -- scrypt$N$r$p$salt$hash; the secret itself is never stored
   );
   CREATE TABLE token_keys (
     environment text PRIMARY KEY,         -- production | sandbox
     key bytea NOT NULL CHECK (length(key) >= 32),
     created_at timestamptz NOT NULL DEFAULT now()
   );`,
  // 2: the statistics' counters, kept by triggers and filled from the records (stats-schema.ts).
  STATS_SCHEMA_SQL,
  // 3: each member's invitation (store/postgres/invitations.ts): all NULL until a run claims the
  // member, so adding them rewrites no row; a partial index of the never-invited in sign-up order,
  // so a claim reads only the head of the queue at any size, and one of the claimed, which stay few.
  `ALTER TABLE waitlist
     ADD COLUMN invite_state text CHECK (invite_state IN ('claimed', 'sent', 'failed')),
     ADD COLUMN invite_claimed_at timestamptz,
     ADD COLUMN invited_at timestamptz,
     ADD COLUMN invite_message_id text,
     ADD COLUMN invite_error text;
   CREATE INDEX waitlist_never_invited ON waitlist (created_at, email) WHERE invite_state IS NULL;
   CREATE INDEX waitlist_invite_claimed ON waitlist (created_at, email) WHERE invite_state = 'claimed';`,
  // 4: the counters changed by appending pending changes that each instance folds in (stats-pending.ts).
  STATS_PENDING_SQL,
];

export const SCHEMA_VERSION = MIGRATIONS.length;

/** Brings the database to SCHEMA_VERSION (tests: to `target`, an older one); returns the version it found. */
export async function migrateSchema(pool: pg.Pool, target = SCHEMA_VERSION): Promise<number> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    await client.query('SELECT pg_advisory_xact_lock($1)', [SCHEMA_LOCK_KEY]);
    await client.query(
      'CREATE TABLE IF NOT EXISTS schema_version (version integer PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())',
    );
    const { rows } = await client.query<{ version: number | null }>('SELECT max(version) AS version FROM schema_version');
    const found = rows[0]?.version ?? 0;
    if (found > SCHEMA_VERSION) {
      throw new StartupError(
        `The database's schema is version ${found}, newer than this program's ${SCHEMA_VERSION}: ` +
          'it was upgraded by a newer release. Run that release, or restore a backup taken before the upgrade.',
      );
    }
    for (let version = found; version < target; version += 1) {
      await client.query(MIGRATIONS[version]);
      await client.query('INSERT INTO schema_version (version) VALUES ($1)', [version + 1]);
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
