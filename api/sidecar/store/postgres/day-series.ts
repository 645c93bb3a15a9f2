/**
 * First sign-ups per UTC day in ONE statement (domain/day-series.ts is the definition): rows grouped
 * by day and answers (at most 216 a day, never a record), summed here into each question's series.
 * One plain hash aggregate: GROUPING SETS per question would sort the range's rows once per question.
 */
import type pg from 'pg';
import { emptyCounts, tally, type FieldCounts } from '../../domain/stats.ts';
import type { DayRange, DaySeries } from '../../domain/day-series.ts';

/** $1 = since, $2 = until. The count before the range is the row whose day is NULL. */
const DAY_SERIES_SQL = `
SELECT day::text AS day, lang, role, building, source, count(*) AS n
FROM (SELECT (created_at AT TIME ZONE 'UTC')::date AS day, lang, role, building, source
      FROM waitlist WHERE created_at >= $1 AND created_at < $2) AS range
GROUP BY day, lang, role, building, source
UNION ALL
SELECT NULL, NULL, NULL, NULL, NULL, count(*) FROM waitlist WHERE created_at < $1`;

type Row = Record<'day' | 'lang' | 'role' | 'building' | 'source', string | null> & { n: string };

export async function signupsPerDay(pool: pg.Pool, range: DayRange): Promise<DaySeries> {
  const { rows } = await pool.query<Row>({ name: 'waitlist-day-series', text: DAY_SERIES_SQL, values: [range.since, range.until] });
  let before = 0;
  const byDay = new Map<string, FieldCounts>();
  for (const row of rows) {
    if (row.day === null) {
      before = Number(row.n);
      continue;
    }
    let counts = byDay.get(row.day);
    if (!counts) byDay.set(row.day, (counts = emptyCounts()));
    tally(counts, { ...row, lang: row.lang! }, Number(row.n));
  }
  const days = [...byDay].sort(([a], [b]) => (a < b ? -1 : 1)).map(([day, counts]) => ({ day, counts }));
  return { before, days };
}
