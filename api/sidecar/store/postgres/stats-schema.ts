/**
 * The statistics' counts kept in the database (docs/api.md, "PostgreSQL"): `stats_answers` (records
 * per answer of each question, not per combination, so an answer reads at most the answers' rows)
 * and `stats_times` (records per UTC day and hour of first sign-up), kept by row triggers in the
 * write's own transaction, whoever writes. Each key is spread over STATS_SLOTS rows, one per
 * connection slot, so concurrent sign-ups seldom wait for each other's COMMIT. A bulk writer (the
 * migration) turns the triggers off in its transaction and calls stats_rebuild() before COMMIT.
 */

/** The row triggers that keep the counts (a bulk writer turns them off and rebuilds). */
export const STATS_TRIGGERS = ['stats_insert_delete', 'stats_update'] as const;

/** Rows per key that concurrent counter changes spread over. */
const STATS_SLOTS = 16;

/** The questions `stats_answers` counts (its `field`: a column of waitlist), each with the group of the statistics it fills. */
export const STATS_FIELDS = { lang: 'byLang', role: 'byRole', building: 'byBuilding', source: 'bySource' } as const;
const FIELDS = Object.keys(STATS_FIELDS);

/** The answers of a row (OLD or NEW) as rows (field, value, d) of `stats_answers`' key and a change `d`. */
const answers = (row: string, d: string) => FIELDS.map((field) => `('${field}', coalesce(${row}.${field}, 'unanswered'), ${d})`).join(', ');

export const STATS_SCHEMA_SQL = `
-- date_part's double precision holds a millisecond exactly enough at any date of this century.
CREATE FUNCTION stats_day(at timestamptz) RETURNS integer LANGUAGE sql IMMUTABLE PARALLEL SAFE
  RETURN floor(date_part('epoch', at) / 86400)::integer;
CREATE FUNCTION stats_hour(at timestamptz) RETURNS integer LANGUAGE sql IMMUTABLE PARALLEL SAFE
  RETURN floor(date_part('epoch', at) / 3600)::integer;

CREATE TABLE stats_answers (
  field text NOT NULL CHECK (field IN (${FIELDS.map((field) => `'${field}'`).join(', ')})),
  value text NOT NULL,                   -- 'unanswered' for a record without one
  slot smallint NOT NULL,                -- 0 … ${STATS_SLOTS - 1}: spreads concurrent changes
  n bigint NOT NULL,
  PRIMARY KEY (field, value, slot)
);
CREATE TABLE stats_times (
  period text NOT NULL CHECK (period IN ('day', 'hour')),
  start integer NOT NULL,                -- stats_day / stats_hour of created_at
  slot smallint NOT NULL,
  n bigint NOT NULL,
  PRIMARY KEY (period, start, slot)
);

-- The old row (none for an INSERT) counted out and the new one (none for a DELETE) in; keys whose
-- changes cancel are left alone, and rows are taken in key order, so two writers on one slot never
-- wait for each other in a circle.
CREATE FUNCTION stats_count() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  pick smallint := pg_backend_pid() % ${STATS_SLOTS};
  old_d integer := CASE WHEN TG_OP = 'INSERT' THEN 0 ELSE -1 END;
  new_d integer := CASE WHEN TG_OP = 'DELETE' THEN 0 ELSE 1 END;
BEGIN
  INSERT INTO stats_answers AS s (field, value, slot, n)
    SELECT c.field, c.value, pick, sum(c.d)
    FROM (VALUES ${answers('OLD', 'old_d')}, ${answers('NEW', 'new_d')}) AS c (field, value, d)
    GROUP BY 1, 2 HAVING sum(c.d) <> 0 ORDER BY 1, 2
    ON CONFLICT (field, value, slot) DO UPDATE SET n = s.n + EXCLUDED.n;
  INSERT INTO stats_times AS s (period, start, slot, n)
    SELECT c.period, c.start, pick, sum(c.d)
    FROM (VALUES ('day', stats_day(OLD.created_at), old_d), ('hour', stats_hour(OLD.created_at), old_d),
                 ('day', stats_day(NEW.created_at), new_d), ('hour', stats_hour(NEW.created_at), new_d)) AS c (period, start, d)
    GROUP BY 1, 2 HAVING sum(c.d) <> 0 ORDER BY 1, 2
    ON CONFLICT (period, start, slot) DO UPDATE SET n = s.n + EXCLUDED.n;
  RETURN NULL;
END
$$;

-- The records whose first sign-up is strictly after \`since\`, to the millisecond: every day row after
-- the day of \`since\`, every hour row of that day after its hour, and the records of that one hour
-- through the created_at index. Generic plans: a custom plan per call would cost more than the reading.
CREATE FUNCTION stats_after(since timestamptz) RETURNS bigint LANGUAGE plpgsql STABLE
  SET plan_cache_mode = force_generic_plan AS $$
DECLARE
  h integer := stats_hour(since);
  d integer := stats_day(since);
BEGIN
  RETURN (SELECT coalesce(sum(n), 0) FROM stats_times WHERE period = 'day' AND start > d)
       + (SELECT coalesce(sum(n), 0) FROM stats_times WHERE period = 'hour' AND start > h AND start < (d + 1) * 24)
       + (SELECT count(*) FROM waitlist WHERE created_at > since AND created_at < to_timestamp((h + 1) * 3600.0));
END
$$;

CREATE FUNCTION stats_clear() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM stats_answers;
  DELETE FROM stats_times;
  RETURN NULL;
END
$$;

CREATE TRIGGER stats_insert_delete AFTER INSERT OR DELETE ON waitlist FOR EACH ROW EXECUTE FUNCTION stats_count();
CREATE TRIGGER stats_update AFTER UPDATE OF created_at, lang, role, building, source ON waitlist FOR EACH ROW
  WHEN ((OLD.created_at, OLD.lang, OLD.role, OLD.building, OLD.source) IS DISTINCT FROM
        (NEW.created_at, NEW.lang, NEW.role, NEW.building, NEW.source))
  EXECUTE FUNCTION stats_count();
CREATE TRIGGER stats_truncate AFTER TRUNCATE ON waitlist FOR EACH STATEMENT EXECUTE FUNCTION stats_clear();

-- The counts recomputed from the records, for a bulk writer that turned the triggers off for its
-- transaction (store/postgres/migrate.ts).
CREATE FUNCTION stats_rebuild() RETURNS void LANGUAGE sql AS $$
  DELETE FROM stats_answers;
  DELETE FROM stats_times;
  INSERT INTO stats_answers
    SELECT c.field, c.value, 0, sum(c.d) FROM waitlist, LATERAL (VALUES ${answers('waitlist', '1')}) AS c (field, value, d) GROUP BY 1, 2;
  INSERT INTO stats_times
    SELECT 'hour', stats_hour(created_at), 0, count(*) FROM waitlist GROUP BY 2;
  INSERT INTO stats_times  -- a day is 24 whole hours: summed from the hours, not another pass over the records
    SELECT 'day', floor(start / 24.0)::integer, 0, sum(n) FROM stats_times WHERE period = 'hour' GROUP BY 2;
$$;
`;
