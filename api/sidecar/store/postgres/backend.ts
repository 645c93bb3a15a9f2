/**
 * The PostgreSQL engine (DATABASE_URL): the waitlist, the OAuth clients and generated token keys
 * live in the database, which is the single source for any number of instances (no data-directory
 * lock: it would mean nothing across machines). Opening it connects (an unreachable server stops
 * the start with one paragraph), brings the schema to its version under an advisory lock and reads
 * or creates the shared keys. Loaded only by store/open-backend.ts when DATABASE_URL is set.
 */
import type { Config } from '../../../config.ts';
import type { Backend, BackendOptions } from '../backend.ts';
import { PostgresClients } from './clients.ts';
import { loadOrCreateSharedKeys } from './keys.ts';
import { urlWithoutPassword } from '../../../log/redact.ts';
import { openWatchedPool } from './pool.ts';
import { migrateSchema } from './schema.ts';
import { foldStatsEvery } from './stats-pending.ts';
import { PostgresWaitlistStore } from './waitlist-store.ts';

export async function openPostgresBackend(config: Config, options: BackendOptions = {}): Promise<Backend> {
  const url = config.DATABASE_URL;
  if (!url) throw new Error('openPostgresBackend needs DATABASE_URL');
  const watched = await openWatchedPool(url, {
    max: config.DATABASE_POOL_SIZE,
    waitMs: options.patient ? undefined : config.DATABASE_POOL_WAIT_MS,
    checkWhileUp: !options.patient,
    rootCert: config.PGSSLROOTCERT,
    logger: options.logger,
  });
  const { pool, health } = watched;
  try {
    await migrateSchema(pool);
    const keys = await loadOrCreateSharedKeys(pool, config);
    const store = new PostgresWaitlistStore(pool, { onCommit: options.onCommit });
    const folds = foldStatsEvery(pool, options.logger);
    return {
      engine: 'postgres',
      store,
      clients: new PostgresClients(pool),
      keys,
      health,
      describe: async () => `store: PostgreSQL ${urlWithoutPassword(url)}, ${await store.count()} records`,
      async close() {
        await folds.stop();
        await store.close();
        await watched.close();
      },
    };
  } catch (error) {
    await watched.close().catch(() => {});
    throw error;
  }
}
