/**
 * The PostgreSQL engine (docs/api.md, "PostgreSQL"): the single source for any number of instances,
 * so no data-directory lock. Opening it connects, creates the schema if it is not there and reads or
 * creates the shared keys.
 */
import type { Config } from '../../../config.ts';
import type { Backend, BackendOptions } from '../backend.ts';
import { PostgresClients } from './clients.ts';
import { watchEngine } from './engine-watch.ts';
import { loadOrCreateSharedKeys } from './keys.ts';
import { urlWithoutPassword } from '../../../log/redact.ts';
import { clientConfig, openPool, QUERY_TIMEOUT_MS, START_TIMEOUT_MS } from './pool.ts';
import { migrateSchema } from './schema.ts';
import { PostgresWaitlistStore } from './waitlist-store.ts';

export async function openPostgresBackend(config: Config, options: BackendOptions = {}): Promise<Backend> {
  const url = config.DATABASE_URL;
  if (!url) throw new Error('openPostgresBackend needs DATABASE_URL');
  // Operator commands answer no waiting client: they wait for connections and answers as long as at start.
  const waitMs = options.patient ? START_TIMEOUT_MS : config.DATABASE_POOL_WAIT_MS;
  const max = config.DATABASE_POOL_SIZE;
  const pool = await openPool(url, { max, waitMs, queryTimeoutMs: options.patient ? undefined : QUERY_TIMEOUT_MS, rootCert: config.PGSSLROOTCERT });
  const watch = watchEngine(pool, clientConfig(url, config.PGSSLROOTCERT), { max, waitMs, logger: options.logger, checkWhileUp: !options.patient });
  const close = async () => {
    await watch.close();
    await pool.end();
  };
  try {
    await migrateSchema(pool);
    const keys = await loadOrCreateSharedKeys(pool, config);
    const store = new PostgresWaitlistStore(pool, { guard: watch.guard, onCommit: options.onCommit });
    return {
      engine: 'postgres',
      store,
      clients: new PostgresClients(pool, watch.guard),
      keys,
      health: watch.health,
      describe: async () => `store: PostgreSQL ${urlWithoutPassword(url)}, ${await store.count()} records`,
      // The store holds nothing of its own: ending the pool (after its calls in flight) closes it.
      close,
    };
  } catch (error) {
    await close().catch(() => {});
    throw error;
  }
}
