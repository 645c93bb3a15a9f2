/**
 * First sign-ups per UTC day in ONE grouped query (the report's numbers; domain/day-series.ts is
 * the definition): PostgreSQL counts per day and answer with GROUPING SETS, so Node receives at
 * most 17 rows per day (one per answer of each question), never a record. Rows before the range
 * fall into one NULL day: the cumulative total's starting point.
 */
import type pg from 'pg';
import { emptyCounts, type FieldCounts } from '../../domain/stats.ts';
import type { DayRange, DaySeries } from '../../domain/day-series.ts';

/** [FieldCounts key, column]: the order of the GROUPING() bits below. */
const DIMENSIONS = [
  ['byLang', 'lang'],
  ['byRole', 'role'],
  ['byBuilding', 'building'],
  ['bySource', 'source'],
] as const;

/**
 * $1 = since, $2 = until. GROUPING(lang, role, building, source) has a 0 bit for the one column a
 * row is grouped by (8 = lang … 1 = source), which tells a NULL answer (unanswered) from a column
 * the row is not grouped by.
 */
export const DAY_SERIES_SQL = `
WITH days AS (
  SELECT CASE WHEN created_at < $1 THEN NULL ELSE (created_at AT TIME ZONE 'UTC')::date END AS day,
         lang, role, building, source
  FROM waitlist WHERE created_at < $2
)
SELECT day::text AS day, GROUPING(lang, role, building, source) AS grouped,
       coalesce(lang, role, building, source) AS answer, count(*) AS n
FROM days
GROUP BY GROUPING SETS ((day, lang), (day, role), (day, building), (day, source))`;

interface Row {
  day: string | null;
  grouped: number;
  answer: string | null;
  n: string;
}

/** The bit of GROUPING(...) that is 0 for dimension i (lang first). */
const bitOf = (i: number) => 1 << (DIMENSIONS.length - 1 - i);

export async function signupsPerDay(pool: pg.Pool, range: DayRange): Promise<DaySeries> {
  const { rows } = await pool.query<Row>({ name: 'waitlist-day-series', text: DAY_SERIES_SQL, values: [range.since, range.until] });
  const before = emptyCounts();
  const byDay = new Map<string, FieldCounts>();
  for (const row of rows) {
    let counts = before;
    if (row.day !== null) {
      counts = byDay.get(row.day) ?? emptyCounts();
      byDay.set(row.day, counts);
    }
    const n = Number(row.n);
    DIMENSIONS.forEach(([key], i) => {
      if ((row.grouped & bitOf(i)) !== 0) return;
      counts[key][row.answer ?? 'unanswered'] = (counts[key][row.answer ?? 'unanswered'] ?? 0) + n;
      // Every record has a language: the language rows alone give the day's total.
      if (key === 'byLang') counts.total += n;
    });
  }
  const days = [...byDay].sort(([a], [b]) => (a < b ? -1 : 1)).map(([day, counts]) => ({ day, counts }));
  return { before, days };
}
