/**
 * Puts the pool's failures in two kinds. The engine away (no connection, the server shutting
 * down, a connection cut, a read-only server after a failover): EngineUnavailableError, reported
 * to the engine's health, which tells the outage in a few log lines. No connection free within
 * DATABASE_POOL_WAIT_MS while the engine is up (an overload): EngineUnavailableError too, so the
 * request answers 500 without a stack trace, summed up by a ThrottledLine instead of a line per
 * request. Anything else (a bug in a statement) passes through as it is: one line with an error id.
 * Every query that succeeds tells the health so, which ends an outage as soon as work gets through.
 *
 * A server that falls silent (a network partition: no reset, no error) would leave statements
 * waiting for TCP's own timeouts, hours. So statements in flight when the health turns down (the
 * probe notices within about two seconds) are answered then, and while it is down each statement
 * gets DOWN_STATEMENT_MS. While the engine is up nothing is timed: a slow statement (a migration's
 * backfill, an export) runs as long as it needs. A statement cut short may still commit later;
 * its request was answered 500, never acknowledged, and a sign-up sent again merges into the same row.
 */
import type pg from 'pg';
import type { EngineHealth } from '../../health/engine-health.ts';
import { ThrottledLine } from '../../health/throttled-line.ts';
import { EngineUnavailableError } from '../../health/unavailable.ts';
import type { Logger } from '../../http/log.ts';
import { SUMMARY_INTERVAL_MS } from '../../health/engine-health.ts';

const CONNECTION_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN', 'EPIPE']);
/** node-postgres's own words for a connection that is gone or never came. */
const CONNECTION_MESSAGES = /^(Connection terminated|Client has encountered a connection error|Query read timeout|timeout exceeded when trying to connect)/;
/** While the engine is down, a statement that has not answered by then is given up. */
const DOWN_STATEMENT_MS = 500;
/** The pool's words when no connection came in time. */
const WAIT_TIMEOUT = /^timeout exceeded when trying to connect/;

/**
 * SQLSTATE classes 08 (connection exception), 53 (insufficient resources: disk full, too many
 * connections), 57P01–57P03 (the server shutting down or starting), 58 (system I/O error), and
 * 25006 (read-only transaction: a primary demoted by a failover).
 */
export function engineAway(error: unknown): boolean {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  if (typeof code === 'string') {
    if (CONNECTION_CODES.has(code) || /^(08|53|58)/.test(code) || /^57P0[123]$/.test(code) || code === '25006') return true;
  }
  return typeof message === 'string' && CONNECTION_MESSAGES.test(message);
}

export interface PoolGuard {
  close(): void;
}

export function guardPool(pool: pg.Pool, health: EngineHealth, logger: Logger, waitMs: number): PoolGuard {
  const busy = new ThrottledLine(logger, SUMMARY_INTERVAL_MS, (count, seconds) =>
    seconds === 0
      ? `postgres: no connection free within ${waitMs} ms (DATABASE_POOL_WAIT_MS, pool of ${pool.options.max}); requests answer 500 while the pool stays full`
      : `postgres: ${count} more requests found no connection free within ${waitMs} ms in the last ${seconds} s`,
  );
  const classify = (error: unknown): unknown => {
    if (error instanceof EngineUnavailableError) return error;
    if (!engineAway(error)) return error;
    const message = (error as { message?: unknown }).message;
    if (health.up && typeof message === 'string' && WAIT_TIMEOUT.test(message) && pool.totalCount >= pool.options.max) busy.hit();
    else health.failed(error);
    return new EngineUnavailableError(health, error);
  };
  const query = pool.query.bind(pool) as (...args: unknown[]) => unknown;
  pool.query = ((...args: unknown[]) => {
    // The callback form is node-postgres's own; everything here uses promises.
    if (typeof args.at(-1) === 'function') return query(...args);
    const startedAt = health.now();
    return bounded(query(...args) as Promise<unknown>).then(
      (result) => (health.succeeded(startedAt), result),
      (error: unknown) => Promise.reject(classify(error)),
    );
  }) as typeof pool.query;
  // Statements in flight, each with the function that answers it early.
  const inFlight = new Set<(error: Error) => void>();
  health.onChange(({ state }) => {
    if (state !== 'down') return;
    for (const cut of inFlight) cut(new Error('the server went away while the statement ran'));
  });
  const bounded = <T>(statement: Promise<T>): Promise<T> =>
    new Promise<T>((resolve, reject) => {
      let timer: NodeJS.Timeout | undefined;
      const settle = () => (inFlight.delete(cut), clearTimeout(timer));
      const cut = (error: Error) => (settle(), reject(new EngineUnavailableError(health, error)));
      inFlight.add(cut);
      if (!health.up) timer = setTimeout(() => cut(new Error(`no answer within ${DOWN_STATEMENT_MS} ms`)), DOWN_STATEMENT_MS);
      statement.then(
        (value) => (settle(), resolve(value)),
        (error: unknown) => (settle(), reject(error)),
      );
    });
  const connect = pool.connect.bind(pool) as (...args: unknown[]) => unknown;
  pool.connect = ((...args: unknown[]) => {
    // pg-pool's query() calls connect(callback): left as it is, its failures reach query() above.
    if (args.length > 0) return connect(...args);
    return (connect() as Promise<pg.PoolClient>).catch((error: unknown) => Promise.reject(classify(error)));
  }) as typeof pool.connect;
  // An idle connection whose server went away: without a listener the pool's 'error' would end
  // the process; it is also the earliest sign of an outage.
  pool.on('error', (error) => {
    if (engineAway(error)) health.failed(error);
  });
  return { close: () => busy.close() };
}
