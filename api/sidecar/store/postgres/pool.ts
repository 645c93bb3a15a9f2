/**
 * The connection pool of the PostgreSQL backend (node-postgres). Loaded only through the dynamic
 * import in store/open-backend.ts, so `pg` is never loaded without DATABASE_URL. An unreachable or
 * refusing server at start is a StartupError: one paragraph saying what failed, where, and what to
 * check, with the password left out.
 *
 * A query waits at most `waitMs` for a connection (DATABASE_POOL_WAIT_MS): an outage or an
 * overload answers fast instead of queueing without bound. Connections that break are dropped and
 * the next query opens a fresh one, so the pool follows a restarted server without a restart here.
 */
import pg from 'pg';
import { urlWithoutPassword } from '../../../log/redact.ts';
import { EngineHealth } from '../../health/engine-health.ts';
import { describeCause } from '../../health/unavailable.ts';
import { silentLogger, type Logger } from '../../http/log.ts';
import { StartupError } from '../errors.ts';
import { guardPool } from './pool-guard.ts';
import { PostgresProbe } from './probe.ts';

/** The connection attempt at start may take this long (a managed server across a network). */
const START_TIMEOUT_MS = 10_000;
/** While the engine is up it is probed this often, so readiness notices a failure within ~2 s. */
const PROBE_UP_MS = 1_000;
/** While it is down, this often: readiness and the log notice its return within ~1 s. */
const PROBE_DOWN_MS = 500;

export interface PoolOptions {
  /** Connections (the sidecar: DATABASE_POOL_SIZE). */
  max: number;
  /** Where the URL came from, for the message (default DATABASE_URL; the migration: --to). */
  setting?: string;
  /** How long a query waits for a connection (the sidecar: DATABASE_POOL_WAIT_MS); default START_TIMEOUT_MS. */
  waitMs?: number;
}

export function clientConfig(url: string): pg.ClientConfig {
  return { connectionString: url };
}

/** A pool whose server answered once (else a StartupError). */
export async function openPool(url: string, options: PoolOptions): Promise<pg.Pool> {
  const config = clientConfig(url);
  await checkReachable(url, config, options.setting ?? 'DATABASE_URL');
  const pool = new pg.Pool({ ...config, max: options.max, connectionTimeoutMillis: options.waitMs ?? START_TIMEOUT_MS, keepAlive: true });
  // An idle client whose server went away emits 'error' on the pool; without a listener that
  // would end the process. The next query gets a fresh connection or fails with a 500.
  pool.on('error', () => {});
  return pool;
}

export interface WatchedPool {
  pool: pg.Pool;
  health: EngineHealth;
  close(): Promise<void>;
}

/** The sidecar's pool: engine failures become EngineUnavailableError and the engine's health. */
export async function openWatchedPool(url: string, options: PoolOptions & { logger?: Logger }): Promise<WatchedPool> {
  const pool = await openPool(url, options);
  const probe = new PostgresProbe(clientConfig(url));
  const health = new EngineHealth({
    engine: 'postgres',
    logger: options.logger ?? silentLogger,
    meanwhile: 'requests that need the database answer 500 until it is back',
    check: () => probe.check(),
    checkUpMs: PROBE_UP_MS,
    checkDownMs: PROBE_DOWN_MS,
  });
  probe.onBroken = (error) => health.failed(error);
  const guard = guardPool(pool, health, options.logger ?? silentLogger, options.waitMs ?? START_TIMEOUT_MS);
  return {
    pool,
    health,
    async close() {
      health.close();
      guard.close();
      await probe.close();
      await pool.end();
    },
  };
}

async function checkReachable(url: string, config: pg.ClientConfig, setting: string): Promise<void> {
  const client = new pg.Client({ ...config, connectionTimeoutMillis: START_TIMEOUT_MS });
  // A connection cut right after the check must not end the process.
  client.on('error', () => {});
  try {
    await client.connect();
  } catch (error) {
    await client.end().catch(() => {});
    throw new StartupError(
      `The PostgreSQL database at ${urlWithoutPassword(url)} (${setting}) cannot be reached: ${describeCause(error)}. ` +
        'Check that the server is running and listens on that host and port, that the database exists, ' +
        'and that the user and password are right' +
        (setting === 'DATABASE_URL' ? '; or unset DATABASE_URL to use the JSON store in DATA_DIR.' : '.'),
    );
  }
  await client.end().catch(() => {});
}
