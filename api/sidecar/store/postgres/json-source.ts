/**
 * What the migration to PostgreSQL copies (migrate.ts): the last commit of the JSON engine's files
 * in DATA_DIR. Reading needs no lock (every write there replaces a file by a rename); the migration
 * holds it anyway while it copies, unless a JSON sidecar does.
 */
import { join } from 'node:path';
import type { Environment } from '../../../contract/index.ts';
import type { ClientRecord } from '../../domain/clients.ts';
import type { WaitlistRecord } from '../../domain/record.ts';
import { StartupError } from '../errors.ts';
import { clientsPath, readClients } from '../json/clients-file.ts';
import { KEYS_FILE_NAME, readKeysFile } from '../json/keys-file.ts';
import { readCommittedRecords, STORE_FILE_NAME } from '../json/waitlist-store.ts';

export interface MigrationSource {
  records: Iterable<WaitlistRecord>;
  clients: readonly ClientRecord[];
  /** Generated keys of the JSON engine, base64url; absent when configured by TOKEN_KEY_*. */
  keys: Partial<Record<Environment, string>>;
}

/** The last commit of DATA_DIR's files; StartupError when there is no waitlist file (wrong DATA_DIR?). */
export async function readJsonDataDir(dataDir: string): Promise<MigrationSource> {
  const table = await readCommittedRecords(dataDir);
  if (!table) {
    throw new StartupError(
      `There is no waitlist file ${join(dataDir, STORE_FILE_NAME)} to migrate. Check DATA_DIR: it must name the JSON store's data directory.`,
    );
  }
  const keys = await readKeysFile(join(dataDir, KEYS_FILE_NAME));
  return {
    records: table.values(),
    clients: await readClients(clientsPath(dataDir)),
    keys: { production: keys?.production, sandbox: keys?.sandbox },
  };
}
