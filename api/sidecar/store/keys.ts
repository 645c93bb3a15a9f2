/**
 * Token signing keys (HS256, RFC 7518 §3.2: at least 32 bytes). Each environment takes its key
 * from configuration (TOKEN_KEY_PRODUCTION / TOKEN_KEY_SANDBOX) or, if none is configured, from
 * DATA_DIR/token-keys.json, which is generated once with crypto.randomBytes(32) and mode 0600.
 * No key is ever baked into the code. Rotation: docs/api.md.
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { join } from 'node:path';
import { z } from 'zod';
import type { Environment } from '../../contract/index.ts';
import { replaceFileDurably } from './durable-file.ts';
import { StartupError } from './errors.ts';
import { readSmallJsonFile } from './small-json-file.ts';

export const KEYS_FILE_NAME = 'token-keys.json';
const KEY_BYTES = 32;

export type TokenKeys = Record<Environment, Uint8Array>;

const base64urlKey = z
  .string()
  .regex(/^[A-Za-z0-9_-]+$/)
  .refine((value) => Buffer.from(value, 'base64url').length >= KEY_BYTES);
const KeysFile = z
  .object({
    format: z.literal('waitlist-token-keys'),
    version: z.literal(1),
    production: base64urlKey.optional(),
    sandbox: base64urlKey.optional(),
  })
  .strict();
type KeysFile = z.infer<typeof KeysFile>;

export interface ConfiguredKeys {
  TOKEN_KEY_PRODUCTION?: Uint8Array;
  TOKEN_KEY_SANDBOX?: Uint8Array;
}

export async function loadOrCreateKeys(dataDir: string, configured: ConfiguredKeys): Promise<TokenKeys> {
  const path = join(dataDir, KEYS_FILE_NAME);
  const stored = await readKeysFile(path);
  const file: KeysFile = stored ?? { format: 'waitlist-token-keys', version: 1 };
  let changed = false;
  const pick = (env: Environment, fromConfig: Uint8Array | undefined): Uint8Array => {
    if (fromConfig) return fromConfig;
    if (!file[env]) {
      file[env] = randomBytes(KEY_BYTES).toString('base64url');
      changed = true;
    }
    return new Uint8Array(Buffer.from(file[env]!, 'base64url'));
  };
  const keys: TokenKeys = {
    production: pick('production', configured.TOKEN_KEY_PRODUCTION),
    sandbox: pick('sandbox', configured.TOKEN_KEY_SANDBOX),
  };
  if (keys.production.length === keys.sandbox.length && timingSafeEqual(keys.production, keys.sandbox)) {
    throw new StartupError(
      'The production and sandbox token keys are the same. They must differ, or a sandbox token would be ' +
        'accepted in production: set TOKEN_KEY_PRODUCTION and TOKEN_KEY_SANDBOX to different values.',
    );
  }
  if (changed) await replaceFileDurably(path, [Buffer.from(`${JSON.stringify(file, null, 2)}\n`)]);
  return keys;
}

function readKeysFile(path: string): Promise<KeysFile | undefined> {
  return readSmallJsonFile(
    path,
    KeysFile,
    `The key file ${path} is corrupt or not a token key file. The sidecar will not start and has left it ` +
      'untouched. Restore it, or delete it to generate new keys (this invalidates every issued token).',
  );
}
