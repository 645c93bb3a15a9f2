/**
 * Back up and restore the data directory of the JSON store while the service runs, through the
 * store's own snapshot reader (docs/deploy.md, "Backups"). Nothing here prints an address.
 */
import { mkdir, readFile, readdir } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { configOrExit } from '../api/config.ts';
import { replaceFileDurably } from '../api/sidecar/store/durable-file.ts';
import { CLIENTS_FILE_NAME } from '../api/sidecar/store/json/clients-file.ts';
import { KEYS_FILE_NAME } from '../api/sidecar/store/json/keys-file.ts';
import { readSnapshot } from '../api/sidecar/store/json/recycled-file.ts';
import { storeCodec } from '../api/sidecar/store/json/store-file.ts';
import { STORE_FILE_NAME } from '../api/sidecar/store/json/waitlist-store.ts';
import { StartupError } from '../api/sidecar/store/errors.ts';
import { LockHeldError, acquireLock, dataDirLockPath } from '../api/sidecar/store/lock.ts';
import { EXIT, main } from './cli.ts';

/** Written by the operator's commands, read as they are: one whole version each (atomic rename). */
const SMALL_FILES = [CLIENTS_FILE_NAME, KEYS_FILE_NAME];

async function readOptional(path: string): Promise<Buffer | undefined> {
  return await readFile(path).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return undefined;
    throw error;
  });
}

/** Copies the waitlist (checked against the schema) and the small files from one folder to another. */
async function copyData(from: string, to: string, readWaitlist: (path: string) => Promise<string | undefined>): Promise<string> {
  const source = join(from, STORE_FILE_NAME);
  const text = await readWaitlist(source);
  if (text === undefined) throw new StartupError(`There is no ${STORE_FILE_NAME} in ${from}.`);
  const records = storeCodec(source).parse(text);
  await mkdir(to, { recursive: true, mode: 0o700 });
  await replaceFileDurably(join(to, STORE_FILE_NAME), [Buffer.from(text)]);
  const copied = [`${records.size} records`];
  for (const name of SMALL_FILES) {
    const bytes = await readOptional(join(from, name));
    if (!bytes) continue;
    await replaceFileDurably(join(to, name), [bytes]);
    copied.push(name);
  }
  return copied.join(', ');
}

async function create(dataDir: string, folder: string): Promise<number> {
  if ((await readdir(folder).catch(() => [])).length > 0) throw new StartupError(`${folder} is not empty: back up into a new folder.`);
  const what = await copyData(dataDir, folder, readSnapshot);
  console.log(`Backed up ${what} from ${dataDir} to ${folder}.`);
  return EXIT.ok;
}

async function restore(dataDir: string, folder: string): Promise<number> {
  await mkdir(dataDir, { recursive: true, mode: 0o700 });
  // The sidecar holds this lock while it runs: restoring under it means the service is stopped.
  const lock = await acquireLock(dataDirLockPath(dataDir), 'restore a backup').catch((error: unknown) => {
    if (error instanceof LockHeldError) throw new StartupError(`${dataDir} is in use by the running service (pid ${error.owner}): stop it, restore, start it again.`);
    throw error;
  });
  try {
    if (await readOptional(join(dataDir, STORE_FILE_NAME))) {
      throw new StartupError(`${dataDir} already holds a waitlist: move ${STORE_FILE_NAME} aside first (restore never overwrites data).`);
    }
    const what = await copyData(folder, dataDir, (path) => readFile(path, 'utf8').catch(() => undefined));
    console.log(`Restored ${what} from ${folder} into ${dataDir}. Start the service.`);
    return EXIT.ok;
  } finally {
    await lock.release();
  }
}

/** The JSON store's data directory; with DATABASE_URL there is none to copy. */
function dataDir(): string {
  const config = configOrExit();
  if (config.DATABASE_URL) {
    throw new StartupError('DATABASE_URL is set: the waitlist, clients and keys are in PostgreSQL. Back up with pg_dump (docs/deploy.md, "Backups").');
  }
  return resolve(config.DATA_DIR);
}

main(
  {
    name: 'node scripts/backup.ts',
    summary: 'Back up and restore the data directory of the JSON store (DATA_DIR from the environment).',
    commands: {
      create: {
        synopsis: 'create FOLDER',
        help: 'Copies the last commit of the waitlist, the OAuth clients and the signing keys into FOLDER, a new or empty folder, while the service runs.',
        args: ['FOLDER'],
        run: ({ positionals }) => create(dataDir(), resolve(positionals[0])),
      },
      restore: {
        synopsis: 'restore FOLDER',
        help: 'Copies a backup from FOLDER into DATA_DIR, with the service stopped; never overwrites a waitlist.',
        args: ['FOLDER'],
        run: ({ positionals }) => restore(dataDir(), resolve(positionals[0])),
      },
    },
    footer: 'Exit codes: 0 done, 1 refused or failed, 2 usage.',
  },
  'backup',
);
