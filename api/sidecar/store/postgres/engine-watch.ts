/**
 * Whether PostgreSQL can do the work (docs/deploy.md, "When an engine fails"). Every call of the
 * store and the clients runs through `guard`: the engine away (a connection refused, cut or silent,
 * the server shutting down or read-only) is an EngineUnavailableError reported to the health, and
 * later calls answer at once until the probe sees the engine back; no pool connection within
 * DATABASE_POOL_WAIT_MS is the same error, summed up in a line per interval, but no outage (a
 * server really away is the probe's to tell). Anything else (a bug in a statement) passes through.
 */
import pg from 'pg';
import { EngineHealth, EngineUnavailableError, SUMMARY_INTERVAL_MS } from '../../health/engine-health.ts';
import { silentLogger, type Logger } from '../../http/log.ts';

/** While the engine is up it is probed this often, so readiness notices a failure within ~2 s. */
const PROBE_UP_MS = 1_000;
/** While it is down, this often: readiness and the log notice its return within ~1 s. */
const PROBE_DOWN_MS = 500;
/** The probe's connection attempt and query give up after this long (the health decides sooner). */
const PROBE_TIMEOUT_MS = 2_000;

const CONNECTION_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN', 'EPIPE']);
/** node-postgres's own words for a connection that is gone, never came in time, or fell silent. */
const CONNECTION_MESSAGES = /^(Connection terminated|Client has encountered a connection error|Query read timeout|timeout exceeded when trying to connect)/;
/** The pool's words when no connection came in time. */
const WAIT_TIMEOUT = /^timeout exceeded when trying to connect/;

/**
 * SQLSTATE classes 08 (connection exception), 53 (insufficient resources: disk full, too many
 * connections), 57P01–57P03 (the server shutting down or starting), 58 (system I/O error), and
 * 25006 (read-only transaction: a primary demoted by a failover).
 */
function engineAway(error: unknown): boolean {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  if (typeof code === 'string') {
    if (CONNECTION_CODES.has(code) || /^(08|53|58)/.test(code) || /^57P0[123]$/.test(code) || code === '25006') return true;
  }
  return typeof message === 'string' && CONNECTION_MESSAGES.test(message);
}

/** Runs one call against the engine, its failures put in their kind. */
export type Guard = <T>(work: () => Promise<T>) => Promise<T>;

interface WatchOptions {
  /** The pool's size and how long a call waits for one of its connections. */
  max: number;
  waitMs: number;
  logger?: Logger;
  /** false: the engine is checked only once a call found it away (operator commands). */
  checkWhileUp?: boolean;
}

export function watchEngine(pool: pg.Pool, config: pg.ClientConfig, options: WatchOptions) {
  const logger = options.logger ?? silentLogger;
  // A connection of its own: a pool busy with slow statements never looks like an engine away.
  const probe = new pg.Pool({ ...config, max: 1, connectionTimeoutMillis: PROBE_TIMEOUT_MS, query_timeout: PROBE_TIMEOUT_MS });
  const health = new EngineHealth({
    engine: 'postgres',
    logger,
    meanwhile: 'requests that need the database answer 500 until it is back',
    check: async () => void (await probe.query('SELECT 1')),
    checkUpMs: options.checkWhileUp === false ? undefined : PROBE_UP_MS,
    checkDownMs: PROBE_DOWN_MS,
  });
  // An idle connection whose server went away: the earliest sign of an outage (and, without a
  // listener, the end of the process).
  const idleFailed = (error: Error) => {
    if (engineAway(error)) health.failed(error);
  };
  pool.on('error', idleFailed);
  probe.on('error', idleFailed);
  // The first request that found the pool full is logged at once, later ones summed up per interval.
  let busyCount = 0;
  let busyTimer: NodeJS.Timeout | undefined;
  const busy = () => {
    if (busyTimer) {
      busyCount += 1;
      return;
    }
    logger.error(`postgres: no connection free within ${options.waitMs} ms (DATABASE_POOL_WAIT_MS, pool of ${options.max}); requests answer 500 while the pool stays full`);
    busyTimer = setInterval(() => {
      if (busyCount === 0) {
        clearInterval(busyTimer);
        busyTimer = undefined;
        return;
      }
      logger.error(`postgres: ${busyCount} more requests found no connection free within ${options.waitMs} ms in the last ${SUMMARY_INTERVAL_MS / 1000} s`);
      busyCount = 0;
    }, SUMMARY_INTERVAL_MS).unref();
  };
  const guard: Guard = async (work) => {
    if (!health.up) throw new EngineUnavailableError(health, new Error(health.state().lastError ?? 'unavailable'));
    try {
      return await work();
    } catch (error) {
      if (!engineAway(error)) throw error;
      if (!WAIT_TIMEOUT.test(String((error as Error).message))) health.failed(error);
      else if (health.up) busy();
      throw new EngineUnavailableError(health, error);
    }
  };
  return {
    health,
    guard,
    async close() {
      health.close();
      clearInterval(busyTimer);
      await probe.end();
    },
  };
}
