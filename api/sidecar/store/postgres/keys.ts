/**
 * Token signing keys with PostgreSQL: from TOKEN_KEY_* when set, otherwise created ONCE for all
 * instances in the table token_keys. Race-free: every instance tries `INSERT … ON CONFLICT DO
 * NOTHING` with a key of its own and then reads the row, so the first insert wins and everyone uses
 * it. A key is never generated per instance (a token of instance A must verify on instance B).
 */
import type pg from 'pg';
import type { Environment } from '../../../contract/index.ts';
import { chooseKeys, newKey, type ConfiguredKeys, type TokenKeys } from '../keys.ts';

/** The stored key of an environment; `candidate` is stored first if there is none yet. */
export async function sharedKey(db: pg.Pool | pg.PoolClient, environment: Environment, candidate = newKey()): Promise<Uint8Array> {
  await db.query('INSERT INTO token_keys (environment, key) VALUES ($1, $2) ON CONFLICT (environment) DO NOTHING', [environment, Buffer.from(candidate)]);
  const { rows } = await db.query<{ key: Buffer }>('SELECT key FROM token_keys WHERE environment = $1', [environment]);
  return new Uint8Array(rows[0].key);
}

export function loadOrCreateSharedKeys(db: pg.Pool, configured: ConfiguredKeys): Promise<TokenKeys> {
  return chooseKeys(configured, (environment) => sharedKey(db, environment));
}
