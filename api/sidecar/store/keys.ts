/** Token signing keys (HS256, RFC 7518 §3.2: at least 32 bytes): from TOKEN_KEY_* or else the engine's, created once (docs/api.md). */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { Config } from '../../config.ts';
import type { Environment } from '../../contract/index.ts';
import { StartupError } from './errors.ts';

export const KEY_BYTES = 32;

export type TokenKeys = Record<Environment, Uint8Array>;

export type ConfiguredKeys = Partial<Pick<Config, 'TOKEN_KEY_PRODUCTION' | 'TOKEN_KEY_SANDBOX'>>;

export function newKey() {
  return randomBytes(KEY_BYTES);
}

/** Each environment's key, configured or else the engine's (`stored`); refuses keys that would let a sandbox token pass in production. */
export async function chooseKeys(configured: ConfiguredKeys, stored: (environment: Environment) => Promise<Uint8Array>): Promise<TokenKeys> {
  const keys = {
    production: configured.TOKEN_KEY_PRODUCTION ?? (await stored('production')),
    sandbox: configured.TOKEN_KEY_SANDBOX ?? (await stored('sandbox')),
  };
  if (keys.production.length === keys.sandbox.length && timingSafeEqual(keys.production, keys.sandbox)) {
    throw new StartupError(
      'The production and sandbox token keys are the same. They must differ, or a sandbox token would be ' +
        'accepted in production: set TOKEN_KEY_PRODUCTION and TOKEN_KEY_SANDBOX to different values.',
    );
  }
  return keys;
}
