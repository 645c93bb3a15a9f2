/**
 * The connection pool of the PostgreSQL backend (node-postgres), whose waits are bounded (docs/deploy.md,
 * "When an engine fails"); an unreachable or refusing server at start is a StartupError naming what to
 * check, never the password. A statement given up may still commit later; its request was answered 500, never acknowledged.
 */
import pg from 'pg';
import { urlWithoutPassword } from '../../../log/redact.ts';
import { describeCause, TLS_FAILURE } from '../../health/engine-health.ts';
import { StartupError } from '../errors.ts';

/** The connection attempt at start may take this long (a managed server across a network). */
export const START_TIMEOUT_MS = 10_000;
/** None of the sidecar's statements reads more than a bounded number of rows: one without an answer by then is a server that fell silent. */
export const QUERY_TIMEOUT_MS = 2_000;

interface PoolOptions {
  /** Connections (the sidecar: DATABASE_POOL_SIZE). */
  max: number;
  /** Where the URL came from, for the message (default DATABASE_URL; the migration: --to). */
  setting?: string;
  /** How long a query waits for a connection (the sidecar: DATABASE_POOL_WAIT_MS); default START_TIMEOUT_MS. */
  waitMs?: number;
  /** How long a query waits for the server's answer (the sidecar: QUERY_TIMEOUT_MS); default: as long as it takes. */
  queryTimeoutMs?: number;
  /** The CA file when DATABASE_URL's sslmode asks for TLS and names no sslrootcert (PGSSLROOTCERT). */
  rootCert?: string;
}

/** Where TLS is asked for, the CA comes from DATABASE_URL's sslrootcert or else from PGSSLROOTCERT. */
const VERIFYING_MODES = new Set(['require', 'verify-ca', 'verify-full']);

/** The connection settings: sslmode as libpq documents it (node-postgres 8 alone reads require as verify-full), the CA file also from PGSSLROOTCERT. */
export function clientConfig(url: string, rootCert?: string): pg.ClientConfig {
  const parsed = new URL(url);
  const mode = parsed.searchParams.get('sslmode');
  if (mode && !parsed.searchParams.has('uselibpqcompat')) parsed.searchParams.set('uselibpqcompat', 'true');
  if (mode && VERIFYING_MODES.has(mode) && rootCert && !parsed.searchParams.has('sslrootcert')) parsed.searchParams.set('sslrootcert', rootCert);
  return { connectionString: parsed.href };
}

/** A pool whose server answered once (else a StartupError). */
export async function openPool(url: string, options: PoolOptions): Promise<pg.Pool> {
  const config = clientConfig(url, options.rootCert);
  await checkReachable(url, config, options.setting ?? 'DATABASE_URL');
  const pool = new pg.Pool({
    ...config,
    max: options.max,
    connectionTimeoutMillis: options.waitMs ?? START_TIMEOUT_MS,
    query_timeout: options.queryTimeoutMs,
    keepAlive: true,
  });
  // An idle client whose server went away emits 'error' on the pool: without a listener, the end of the process.
  pool.on('error', () => {});
  return pool;
}

async function checkReachable(url: string, config: pg.ClientConfig, setting: string): Promise<void> {
  let client: pg.Client | undefined;
  try {
    // The URL's TLS settings are read here (a missing CA file, verify-ca without one: thrown at once).
    client = new pg.Client({ ...config, connectionTimeoutMillis: START_TIMEOUT_MS });
    // A connection cut right after the check must not end the process.
    client.on('error', () => {});
    await client.connect();
  } catch (error) {
    await client?.end().catch(() => {});
    const cause = describeCause(error);
    const where = `The PostgreSQL database at ${urlWithoutPassword(url)} (${setting})`;
    if (TLS_FAILURE.test(cause) || (error as { code?: string }).code === 'ENOENT') {
      throw new StartupError(
        `${where} cannot be reached over TLS: ${cause}. Check sslmode in ${setting} (disable, require, verify-ca or ` +
          'verify-full, as libpq documents them) and the CA file (sslrootcert in the URL, or PGSSLROOTCERT): it must exist and ' +
          "hold the CA that signed the server's certificate; a server that accepts TLS connections only needs sslmode=require or stricter.",
      );
    }
    throw new StartupError(
      `${where} cannot be reached: ${cause}. ` +
        'Check that the server is running and listens on that host and port, that the database exists, ' +
        'and that the user and password are right' +
        (setting === 'DATABASE_URL' ? '; or unset DATABASE_URL to use the JSON store in DATA_DIR.' : '.'),
    );
  }
  await client.end().catch(() => {});
}
