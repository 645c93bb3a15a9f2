/** The JSON engine's generated token keys (store/keys.ts): DATA_DIR/token-keys.json, mode 0600, written once. */
import { join } from 'node:path';
import { z } from 'zod';
import { formatFile } from '../durable-file.ts';
import { chooseKeys, KEY_BYTES, newKey, type ConfiguredKeys, type TokenKeys } from '../keys.ts';

export const KEYS_FILE_NAME = 'token-keys.json';

const base64urlKey = z
  .string()
  .regex(/^[A-Za-z0-9_-]+$/)
  .refine((value) => Buffer.from(value, 'base64url').length >= KEY_BYTES);

/** The stored keys (the migration to PostgreSQL reads them too). */
export const keysFile = formatFile(
  'waitlist-token-keys',
  { production: base64urlKey.optional(), sandbox: base64urlKey.optional() },
  (path) =>
    `The key file ${path} is corrupt or not a token key file. The sidecar will not start and has left it ` +
    'untouched. Restore it, or delete it to generate new keys (this invalidates every issued token).',
);

export async function loadOrCreateKeys(dataDir: string, configured: ConfiguredKeys): Promise<TokenKeys> {
  const path = join(dataDir, KEYS_FILE_NAME);
  const file: Partial<Record<'production' | 'sandbox', string>> = (await keysFile.read(path)) ?? {};
  let changed = false;
  const keys = await chooseKeys(configured, async (env) => {
    if (!file[env]) {
      file[env] = newKey().toString('base64url');
      changed = true;
    }
    return new Uint8Array(Buffer.from(file[env], 'base64url'));
  });
  if (changed) await keysFile.write(path, file);
  return keys;
}
