/**
 * `npm run waitlist -- migrate --to "$DATABASE_URL"` (docs/operator.md, "Move to PostgreSQL"):
 * the JSON data directory's waitlist, clients and generated keys copied into PostgreSQL in ONE
 * transaction, then compared; a mismatch rolls everything back. Safe to run again: a record merges
 * with the database's row of its address as the two sign-up histories would, clients and keys
 * already there are kept (a key that differs is reported: tokens signed with the file's stop verifying).
 */
import { join } from 'node:path';
import type pg from 'pg';
import { ENVIRONMENTS, type Environment } from '../../../contract/index.ts';
import type { ClientRecord } from '../../domain/clients.ts';
import type { WaitlistRecord } from '../../domain/record.ts';
import { StartupError } from '../errors.ts';
import { clientsPath, readClients } from '../json/clients-file.ts';
import { KEYS_FILE_NAME, keysFile } from '../json/keys-file.ts';
import { JsonWaitlistStore, STORE_FILE_NAME } from '../json/waitlist-store.ts';
import { acquireLock, dataDirLockPath, LockHeldError } from '../lock.ts';
import { clientParams, COLUMNS as CLIENT_COLUMNS } from './clients.ts';
import { sharedKey } from './keys.ts';
import { openPool } from './pool.ts';
import { columnsOf, RECORD_COLUMNS } from './record-row.ts';
import { migrateSchema } from './schema.ts';
import { STATS_TRIGGERS } from './stats-schema.ts';

export type MigrationReport = Awaited<ReturnType<typeof migrateToPostgres>>;

interface MigrationSource {
  records: AsyncIterable<WaitlistRecord> | Iterable<WaitlistRecord>;
  clients: readonly ClientRecord[];
  /** Generated keys of the JSON engine, base64url; absent when configured by TOKEN_KEY_*. */
  keys: Partial<Record<Environment, string>>;
}

/** The last commit of DATA_DIR's files, read without the lock; StartupError when there is no waitlist file. */
export async function readJsonDataDir(dataDir: string): Promise<MigrationSource> {
  const store = await JsonWaitlistStore.readOnly(dataDir);
  if (!store) {
    throw new StartupError(
      `There is no waitlist file ${join(dataDir, STORE_FILE_NAME)} to migrate. Check DATA_DIR: it must name the JSON store's data directory.`,
    );
  }
  const keys = await keysFile.read(join(dataDir, KEYS_FILE_NAME));
  return {
    records: store.export(),
    clients: await readClients(clientsPath(dataDir)),
    keys: { production: keys?.production, sandbox: keys?.sandbox },
  };
}

/** Rows per INSERT … SELECT FROM unnest(…) statement. */
const BATCH = 2000;

/** The file's version (EXCLUDED) and the database's (w) merged as mergeSignup would replay them, older first; an unchanged row is not RETURNed. */
const UPSERT_BATCH_SQL = `
INSERT INTO waitlist AS w (${RECORD_COLUMNS})
SELECT * FROM unnest($1::text[], $2::timestamptz[], $3::timestamptz[], $4::timestamptz[], $5::text[], $6::text[],
                     $7::text[], $8::text[], $9::text[], $10::text[], $11::text[], $12::text[],
                     $13::text[], $14::timestamptz[], $15::timestamptz[], $16::text[], $17::text[])
ON CONFLICT (email) DO UPDATE SET
  created_at = least(w.created_at, EXCLUDED.created_at),
  consent_at = ${newer('consent_at')}, updated_at = ${newer('updated_at')}, lang = ${newer('lang')},
  consent_form = ${newer('consent_form')}, consent_channel = ${newer('consent_channel')},
  consent_lang = ${newer('consent_lang')}, consent_text_version = ${newer('consent_text_version')},
  role = ${answer('role')}, building = ${answer('building')}, source = ${answer('source')},
  invite_state = ${invitation('invite_state')}, invite_claimed_at = ${invitation('invite_claimed_at')},
  invited_at = ${invitation('invited_at')}, invite_message_id = ${invitation('invite_message_id')}, invite_error = ${invitation('invite_error')}
WHERE EXCLUDED.updated_at > w.updated_at OR EXCLUDED.created_at < w.created_at
   OR (w.invite_state IS NULL AND EXCLUDED.invite_state IS NOT NULL)
   OR (w.role IS NULL AND EXCLUDED.role IS NOT NULL) OR (w.building IS NULL AND EXCLUDED.building IS NOT NULL)
   OR (w.source IS NULL AND EXCLUDED.source IS NOT NULL)
RETURNING (xmax = 0) AS inserted`;

function newer(column: string): string {
  return `CASE WHEN EXCLUDED.updated_at > w.updated_at THEN EXCLUDED.${column} ELSE w.${column} END`;
}

function answer(column: string): string {
  return `CASE WHEN EXCLUDED.updated_at > w.updated_at THEN coalesce(EXCLUDED.${column}, w.${column}) ELSE coalesce(w.${column}, EXCLUDED.${column}) END`;
}

/** The invitation goes as a whole: the database's when it has one (a run there already), else the file's. */
function invitation(column: string): string {
  return `CASE WHEN w.invite_state IS NULL THEN EXCLUDED.${column} ELSE w.${column} END`;
}

/** The rows of `table` whose `column` is one of `values` (the comparison after a copy). */
async function countWhere(db: pg.PoolClient, table: string, column: string, values: string[]): Promise<number> {
  const { rows } = await db.query<{ n: string }>(`SELECT count(*) AS n FROM ${table} WHERE ${column} = ANY($1)`, [values]);
  return Number(rows[0].n);
}

/** Copies and compares in one transaction; throws (and changes nothing) when the comparison fails. */
export async function migrateToPostgres(pool: pg.Pool, source: MigrationSource) {
  await migrateSchema(pool);
  const db = await pool.connect();
  try {
    await db.query('BEGIN');
    // The statistics' counters are rebuilt once before COMMIT, not changed row by row (stats-schema.ts).
    // Disabling triggers takes the table's SHARE ROW EXCLUSIVE lock: sign-ups wait for the COMMIT.
    await db.query(`ALTER TABLE waitlist ${STATS_TRIGGERS.map((name) => `DISABLE TRIGGER ${name}`).join(', ')}`);
    const waitlist = { source: 0, inserted: 0, updated: 0, unchanged: 0, inDatabase: 0, matched: 0 };
    let batch: WaitlistRecord[] = [];
    const flush = async () => {
      if (batch.length === 0) return;
      const { rows } = await db.query<{ inserted: boolean }>(UPSERT_BATCH_SQL, columnsOf(batch));
      const inserted = rows.filter((row) => row.inserted).length;
      waitlist.inserted += inserted;
      waitlist.updated += rows.length - inserted;
      waitlist.unchanged += batch.length - rows.length;
      waitlist.matched += await countWhere(db, 'waitlist', 'email', batch.map((r) => r.email));
      batch = [];
    };
    for await (const record of source.records) {
      waitlist.source += 1;
      batch.push(record);
      if (batch.length >= BATCH) await flush();
    }
    await flush();
    waitlist.inDatabase = Number((await db.query<{ n: string }>('SELECT count(*) AS n FROM waitlist')).rows[0].n);

    const clients = { source: source.clients.length, inserted: 0, matched: 0 };
    for (const client of source.clients) {
      const { rowCount } = await db.query(
        `INSERT INTO oauth_clients (${CLIENT_COLUMNS}) VALUES ($1, $2, $3, $4, $5) ON CONFLICT (id) DO NOTHING`,
        clientParams(client),
      );
      clients.inserted += rowCount ?? 0;
    }
    clients.matched = await countWhere(db, 'oauth_clients', 'id', source.clients.map((c) => c.id));

    const keys = { source: 0, inserted: 0, matched: 0, differing: [] as Environment[] };
    for (const env of ENVIRONMENTS) {
      const encoded = source.keys[env];
      if (!encoded) continue;
      keys.source += 1;
      const before = await countWhere(db, 'token_keys', 'environment', [env]);
      const fileKey = Buffer.from(encoded, 'base64url');
      const stored = Buffer.from(await sharedKey(db, env, fileKey));
      if (before === 0) keys.inserted += 1;
      if (stored.equals(fileKey)) keys.matched += 1;
      else keys.differing.push(env);
    }

    if (waitlist.matched !== waitlist.source || clients.matched !== clients.source) {
      throw new Error(
        `The comparison failed (waitlist ${waitlist.matched} of ${waitlist.source}, clients ${clients.matched} of ${clients.source} found in the database); nothing was changed.`,
      );
    }
    await db.query('SELECT stats_rebuild()');
    await db.query(`ALTER TABLE waitlist ${STATS_TRIGGERS.map((name) => `ENABLE TRIGGER ${name}`).join(', ')}`);
    await db.query('COMMIT');
    return { waitlist, clients, keys };
  } catch (error) {
    await db.query('ROLLBACK').catch(() => {});
    throw error;
  } finally {
    db.release();
  }
}

/** DATA_DIR's files into the database, under the data-directory lock; a running sidecar's last commit is copied with a warning. */
export async function migrateDataDir(dataDir: string, url: string, warn: (line: string) => void): Promise<MigrationReport> {
  const lock = await acquireLock(dataDirLockPath(dataDir), `The data directory ${dataDir}`).catch((error: unknown) => {
    if (!(error instanceof LockHeldError)) throw error;
    warn(
      `warning: a JSON sidecar (process ${error.owner}) is using ${dataDir}: this copies its last commit; ` +
        'sign-ups after it are not included. Run the migration again after switching to DATABASE_URL.',
    );
    return undefined;
  });
  try {
    const pool = await openPool(url, { max: 1, setting: '--to' });
    try {
      return await migrateToPostgres(pool, await readJsonDataDir(dataDir));
    } finally {
      await pool.end();
    }
  } finally {
    await lock?.release();
  }
}

export function reportLines(report: MigrationReport): string[] {
  const { waitlist: w, clients: c, keys: k } = report;
  const lines = [
    `waitlist: ${w.source} records in the file, ${w.matched} of them in the database (${w.inserted} inserted, ${w.updated} updated, ${w.unchanged} unchanged); ${w.inDatabase} rows in the database`,
    `clients: ${c.source} in the file, ${c.matched} in the database (${c.inserted} inserted)`,
    `token keys: ${k.source} generated in the file, ${k.matched} equal in the database (${k.inserted} inserted)`,
  ];
  if (k.differing.length > 0) {
    lines.push(
      `warning: the database already had a different ${k.differing.join(' and ')} key and kept it: tokens issued by the JSON instance will not verify against PostgreSQL (they expire within 15 minutes).`,
    );
  }
  return lines;
}
