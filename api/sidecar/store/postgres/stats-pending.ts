/**
 * Schema version 4: the statistics' counters (stats-schema.ts) changed by appending, not updating.
 * A row trigger that updates counter rows costs every sign-up three row updates, each a new row
 * version under a lock held until COMMIT: measured with pgbench on this machine, that halved the
 * sign-ups PostgreSQL takes per second. So a write that changes a count now appends its change to
 * `stats_pending` (one narrow row, no index: an append that locks nothing another sign-up waits
 * for), and `stats_fold()` moves the pending changes into the counters, in one transaction, a few
 * times a second (foldStatsEvery below, in every instance; at most one fold runs at a time).
 *
 * An answer reads counters plus pending rows in one snapshot, so it is exact whatever the folds
 * did: a change is in exactly one of the two at any moment, because a fold deletes the pending
 * rows it adds in the same transaction. The pending rows an answer reads are the changes since the
 * last fold, bounded by the rate of sign-ups, never by the length of the list.
 *
 * The step also sums the per-connection slots of version 2 into one row per key (the slots spread
 * counter updates of concurrent sign-ups; with only folds updating counters, nothing needs them),
 * under the same SHARE ROW EXCLUSIVE lock on `waitlist` as version 2's step: writers wait for it,
 * none is counted twice or missed. It reads only the counter rows, never the records.
 */
import type pg from 'pg';
import type { Logger } from '../../http/log.ts';
import { EngineUnavailableError } from '../../health/unavailable.ts';
import { answers } from './stats-schema.ts';

/**
 * How often each instance folds the pending changes into the counters: every second while none
 * come, ten times a second while they do. Every answer reads the pending rows (and the dead ones a
 * fold leaves until vacuum), so their number sets its cost: measured at 100,000 records, 0.5 ms
 * with none, 0.6 ms with 300 (the tenth of a second of 3,000 sign-ups/s), 2.2 ms with 2,400.
 */
export const FOLD_INTERVAL_MS = 1_000;
export const FOLD_BUSY_MS = 100;

/**
 * Folded rows after which an instance vacuums `stats_pending` (about two seconds of a busy
 * launch). Measured at 100,000 records: a statistics query took 0.39 ms over an empty table,
 * 0.88 ms after 30,000 folded rows had left their dead versions, 0.51 ms once vacuumed.
 */
export const VACUUM_AFTER_ROWS = 5_000;
/**
 * Never truncating: truncation locks the table against the sign-ups' appends; the emptied pages
 * are reused by the next ones instead. A vacuum already running elsewhere is skipped.
 */
const VACUUM_SQL = 'VACUUM (TRUNCATE false, SKIP_LOCKED) stats_pending';

/** Arbitrary but fixed: the advisory lock key of a fold ("FOLD" in ASCII). */
const FOLD_LOCK_KEY = 0x464f4c44;

export const STATS_PENDING_SQL = `
LOCK TABLE waitlist IN SHARE ROW EXCLUSIVE MODE;

-- One row per key: the slots summed.
CREATE TABLE stats_answers_by_key (
  lang text NOT NULL,
  role text NOT NULL,
  building text NOT NULL,
  source text NOT NULL,
  n bigint NOT NULL,
  PRIMARY KEY (lang, role, building, source)
);
INSERT INTO stats_answers_by_key SELECT lang, role, building, source, sum(n) FROM stats_answers GROUP BY 1, 2, 3, 4;
DROP TABLE stats_answers;
ALTER TABLE stats_answers_by_key RENAME TO stats_answers;
ALTER INDEX stats_answers_by_key_pkey RENAME TO stats_answers_pkey;

CREATE TABLE stats_times_by_key (
  period text NOT NULL CHECK (period IN ('day', 'hour')),
  start integer NOT NULL,
  n bigint NOT NULL,
  PRIMARY KEY (period, start)
);
INSERT INTO stats_times_by_key SELECT period, start, sum(n) FROM stats_times GROUP BY 1, 2;
DROP TABLE stats_times;
ALTER TABLE stats_times_by_key RENAME TO stats_times;
ALTER INDEX stats_times_by_key_pkey RENAME TO stats_times_pkey;

-- Changes not yet folded: +1 for a record counted in, -1 for one counted out. Vacuumed often,
-- since every fold empties it.
CREATE TABLE stats_pending (
  lang text NOT NULL,
  role text NOT NULL,
  building text NOT NULL,
  source text NOT NULL,
  hour integer NOT NULL,                -- stats_hour of created_at; the day is hour / 24
  d smallint NOT NULL
) WITH (autovacuum_vacuum_scale_factor = 0, autovacuum_vacuum_threshold = 5000, autovacuum_vacuum_insert_threshold = 5000);

-- The same triggers (and their WHEN) call the function; only what it writes changes.
CREATE OR REPLACE FUNCTION stats_count() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO stats_pending VALUES (${answers('NEW')}, stats_hour(NEW.created_at), 1);
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO stats_pending VALUES (${answers('OLD')}, stats_hour(OLD.created_at), -1);
  ELSE
    INSERT INTO stats_pending VALUES (${answers('OLD')}, stats_hour(OLD.created_at), -1),
                                     (${answers('NEW')}, stats_hour(NEW.created_at), 1);
  END IF;
  RETURN NULL;
END
$$;

-- Moves every pending change this transaction sees into the counters, and returns how many. A
-- second fold at the same time returns 0 at once rather than wait. Counter rows are taken in one
-- order (answers, hours, days, each sorted), so a fold never deadlocks with another writer.
CREATE FUNCTION stats_fold() RETURNS bigint LANGUAGE plpgsql AS $$
DECLARE
  folded bigint;
BEGIN
  IF NOT pg_try_advisory_xact_lock(${FOLD_LOCK_KEY}) THEN
    RETURN 0;
  END IF;
  WITH taken AS (DELETE FROM stats_pending RETURNING *),
  answers AS (
    INSERT INTO stats_answers AS s
      SELECT lang, role, building, source, sum(d) FROM taken GROUP BY 1, 2, 3, 4 HAVING sum(d) <> 0 ORDER BY 1, 2, 3, 4
      ON CONFLICT (lang, role, building, source) DO UPDATE SET n = s.n + EXCLUDED.n),
  hours AS (
    INSERT INTO stats_times AS s
      SELECT 'hour', hour, sum(d) FROM taken GROUP BY 2 HAVING sum(d) <> 0 ORDER BY 2
      ON CONFLICT (period, start) DO UPDATE SET n = s.n + EXCLUDED.n),
  days AS (
    INSERT INTO stats_times AS s
      SELECT 'day', floor(hour / 24.0)::integer, sum(d) FROM taken GROUP BY 2 HAVING sum(d) <> 0 ORDER BY 2
      ON CONFLICT (period, start) DO UPDATE SET n = s.n + EXCLUDED.n)
  SELECT count(*) INTO folded FROM taken;
  RETURN folded;
END
$$;

-- Version 2's window count becomes the count of the folded changes and the boundary hour's records;
-- stats_after adds the pending changes of every hour after the boundary hour (that hour's records
-- are counted through the index, so its pending rows are left out).
ALTER FUNCTION stats_after(timestamptz) RENAME TO stats_folded_after;
CREATE FUNCTION stats_after(since timestamptz) RETURNS bigint LANGUAGE plpgsql STABLE
  SET plan_cache_mode = force_generic_plan AS $$
DECLARE
  h integer := stats_hour(since);
BEGIN
  RETURN stats_folded_after(since) + (SELECT coalesce(sum(p.d), 0) FROM stats_pending AS p WHERE p.hour > h);
END
$$;

CREATE OR REPLACE FUNCTION stats_clear() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM stats_pending;
  DELETE FROM stats_answers;
  DELETE FROM stats_times;
  RETURN NULL;
END
$$;

CREATE OR REPLACE FUNCTION stats_rebuild() RETURNS void LANGUAGE sql AS $$
  DELETE FROM stats_pending;
  DELETE FROM stats_answers;
  DELETE FROM stats_times;
  INSERT INTO stats_answers
    SELECT ${answers('waitlist')}, count(*) FROM waitlist GROUP BY 1, 2, 3, 4;
  INSERT INTO stats_times
    SELECT 'hour', stats_hour(created_at), count(*) FROM waitlist GROUP BY 2;
  INSERT INTO stats_times  -- a day is 24 whole hours: summed from the hours, not another pass over the records
    SELECT 'day', floor(start / 24.0)::integer, sum(n) FROM stats_times WHERE period = 'hour' GROUP BY 2;
$$;
`;

/** Folds the pending changes now; resolves with how many there were (0 when another fold runs). */
export async function foldStats(db: pg.Pool | pg.PoolClient): Promise<number> {
  const { rows } = await db.query<{ folded: string }>({ name: 'stats-fold', text: 'SELECT stats_fold() AS folded' });
  return Number(rows[0].folded);
}

/**
 * Folds until stopped: every FOLD_BUSY_MS while there are changes to fold, every FOLD_INTERVAL_MS
 * when the last fold found none; a fold never overlaps the one before it. After every
 * VACUUM_AFTER_ROWS folded rows it vacuums `stats_pending`, so their dead versions do not pile up
 * until autovacuum's next pass (a minute apart by default) for every answer to read. An engine
 * that is away is the health's to tell (the next fold after it returns catches up); any other
 * failure is a bug and logs one line.
 */
export function foldStatsEvery(pool: pg.Pool, logger: Logger | undefined, idleMs = FOLD_INTERVAL_MS, busyMs = FOLD_BUSY_MS): { stop(): Promise<void> } {
  let running: Promise<void> | undefined;
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  let sinceVacuum = 0;
  const next = (ms: number) => {
    if (stopped) return;
    timer = setTimeout(fold, ms);
    timer.unref();
  };
  async function foldOnce(): Promise<number> {
    const folded = await foldStats(pool);
    sinceVacuum += folded;
    if (sinceVacuum >= VACUUM_AFTER_ROWS) {
      sinceVacuum = 0;
      await pool.query(VACUUM_SQL);
    }
    return folded;
  }
  function fold(): void {
    running = foldOnce().then(
      (folded) => next(folded > 0 ? busyMs : idleMs),
      (error: unknown) => {
        if (!(error instanceof EngineUnavailableError)) logger?.error(`folding the statistics counters failed: ${(error as Error).message}`);
        next(idleMs);
      },
    );
  }
  next(idleMs);
  return {
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}
