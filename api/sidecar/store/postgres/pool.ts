/**
 * The connection pool of the PostgreSQL backend (node-postgres). Loaded only through the dynamic
 * import in store/open-backend.ts, so `pg` is never loaded without DATABASE_URL. An unreachable or
 * refusing server at start is a StartupError: one paragraph saying what failed, where, and what to
 * check, with the password left out.
 */
import pg from 'pg';
import { urlWithoutPassword } from '../../../log/redact.ts';
import { StartupError } from '../errors.ts';

export interface PoolOptions {
  /** Connections (the sidecar: DATABASE_POOL_SIZE). */
  max: number;
  /** Where the URL came from, for the message (default DATABASE_URL; the migration: --to). */
  setting?: string;
}

export async function openPool(url: string, options: PoolOptions): Promise<pg.Pool> {
  const setting = options.setting ?? 'DATABASE_URL';
  const pool = new pg.Pool({ connectionString: url, max: options.max, connectionTimeoutMillis: 10_000 });
  // An idle client whose server went away emits 'error' on the pool; without a listener that
  // would end the process. The next query gets a fresh connection or fails with a 500.
  pool.on('error', () => {});
  try {
    const client = await pool.connect();
    client.release();
  } catch (error) {
    await pool.end().catch(() => {});
    const why = error instanceof Error ? error.message : String(error);
    throw new StartupError(
      `The PostgreSQL database at ${urlWithoutPassword(url)} (${setting}) cannot be reached: ${why}. ` +
        'Check that the server is running and listens on that host and port, that the database exists, ' +
        'and that the user and password are right' +
        (setting === 'DATABASE_URL' ? '; or unset DATABASE_URL to use the JSON store in DATA_DIR.' : '.'),
    );
  }
  return pool;
}
