/**
 * Token signing keys with PostgreSQL: from TOKEN_KEY_* when set, otherwise created ONCE for all
 * instances in the table token_keys. Race-free: every instance tries `INSERT … ON CONFLICT DO
 * NOTHING` with a key of its own and then reads the row, so the first insert wins and everyone uses
 * it. A key is never generated per instance (a token of instance A must verify on instance B).
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import type pg from 'pg';
import { ENVIRONMENTS, type Environment } from '../../../contract/index.ts';
import { StartupError } from '../errors.ts';

const KEY_BYTES = 32;

export type Keys = Record<Environment, Uint8Array>;

export interface ConfiguredKeys {
  TOKEN_KEY_PRODUCTION?: Uint8Array;
  TOKEN_KEY_SANDBOX?: Uint8Array;
}

/** The stored key of an environment, created if there is none yet. */
export async function sharedKey(db: pg.Pool | pg.PoolClient, environment: Environment, candidate = randomBytes(KEY_BYTES)): Promise<Uint8Array> {
  await db.query('INSERT INTO token_keys (environment, key) VALUES ($1, $2) ON CONFLICT (environment) DO NOTHING', [environment, candidate]);
  const { rows } = await db.query<{ key: Buffer }>('SELECT key FROM token_keys WHERE environment = $1', [environment]);
  return new Uint8Array(rows[0].key);
}

export async function loadOrCreateSharedKeys(db: pg.Pool, configured: ConfiguredKeys): Promise<Keys> {
  const keys = {} as Keys;
  for (const environment of ENVIRONMENTS) {
    const fromConfig = environment === 'production' ? configured.TOKEN_KEY_PRODUCTION : configured.TOKEN_KEY_SANDBOX;
    keys[environment] = fromConfig ?? (await sharedKey(db, environment));
  }
  if (keys.production.length === keys.sandbox.length && timingSafeEqual(keys.production, keys.sandbox)) {
    throw new StartupError(
      'The production and sandbox token keys are the same. They must differ, or a sandbox token would be ' +
        'accepted in production: set TOKEN_KEY_PRODUCTION and TOKEN_KEY_SANDBOX to different values.',
    );
  }
  return keys;
}
