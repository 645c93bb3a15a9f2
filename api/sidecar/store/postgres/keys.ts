/** Token keys shared by all instances (a token of one must verify on another): the first inserted candidate wins. */
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
