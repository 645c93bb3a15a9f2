/**
 * The JSON engine (the embedded default): DATA_DIR holds the waitlist, the clients, generated token
 * keys and the lock that keeps one sidecar, the waitlist's only writer, per directory. For the
 * sidecar it also serves the operator socket (operator/server.ts).
 */
import { mkdir } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { Config } from '../../../config.ts';
import { EngineHealth } from '../../health/engine-health.ts';
import { silentLogger } from '../../http/log.ts';
import { serveOperator } from '../../operator/server.ts';
import type { Backend, BackendOptions } from '../backend.ts';
import { acquireLock, dataDirLockPath } from '../lock.ts';
import { clientsPath, FileClientDirectory } from './clients-file.ts';
import { loadOrCreateKeys } from './keys-file.ts';
import { JsonWaitlistStore, STORE_FILE_NAME } from './waitlist-store.ts';

/** The JSON store's envelope (docs/performance.md): above it, the start-up warning points to PostgreSQL. */
export const COMFORTABLE_RECORDS = 100_000;
/** While the disk refuses writes, a commit of what is in memory is tried this often (readiness, recovery without traffic). */
const DISK_RETRY_MS = 1_000;

/** `comfortableRecords` is for tests, which cannot afford 100,000 records to see the warning. */
export async function openJsonBackend(config: Config, options: BackendOptions, comfortableRecords = COMFORTABLE_RECORDS): Promise<Backend> {
  const dataDir = resolve(config.DATA_DIR);
  await mkdir(dataDir, { recursive: true, mode: 0o700 });
  const lock = await acquireLock(dataDirLockPath(dataDir), `The data directory ${dataDir}`);
  let store: JsonWaitlistStore | undefined;
  let operator: Awaited<ReturnType<typeof serveOperator>>;
  const health = new EngineHealth({
    engine: 'json',
    logger: options.logger ?? silentLogger,
    meanwhile: 'sign-ups and erasures answer 500 until the disk takes writes again (the file keeps its last commit)',
    check: () => store!.sync(),
    checkDownMs: DISK_RETRY_MS,
  });
  const close = async () => {
    health.close();
    await operator?.close();
    await store?.close();
    await lock.release();
  };
  try {
    store = await JsonWaitlistStore.open(dataDir, { onCommit: options.onCommit, health });
    const keys = await loadOrCreateKeys(dataDir, config);
    const clients = await new FileClientDirectory(clientsPath(dataDir)).load();
    const size = await store.count();
    if (size > comfortableRecords) {
      options.warn?.(
        `The JSON store holds ${size} records, more than the ${comfortableRecords} it serves comfortably ` +
          '(every commit rewrites the whole file); move to PostgreSQL: npm run waitlist -- migrate --to "$DATABASE_URL", then set DATABASE_URL',
      );
    }
    if (options.serveOperator) operator = await serveOperator(store, dataDir, options.warn);
    const describe = async () => `store: JSON file ${join(dataDir, STORE_FILE_NAME)}, ${await store!.count()} records`;
    return { engine: 'json', store, clients, keys, health, describe, close };
  } catch (error) {
    await close();
    throw error;
  }
}
