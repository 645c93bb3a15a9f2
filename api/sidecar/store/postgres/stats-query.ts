/**
 * The statistics of the PostgreSQL store from the counters of stats-schema.ts in ONE statement
 * (one snapshot, so the numbers agree with each other), reading a bounded number of rows at any
 * size: the answers' rows (one per answer of each question, per slot), and per window
 * (`stats_after`) at most 30 day rows and 24 hour rows per slot, plus the records of the one
 * boundary hour through the `created_at` index. The windows follow domain/stats.ts to the
 * millisecond: a record counts when its first sign-up is strictly after now minus 7 (30) days.
 */
import type pg from 'pg';
import type { WaitlistStats } from '../../../contract/index.ts';
import { emptyCounts, statsOf, windowStarts } from '../../domain/stats.ts';
import { STATS_FIELDS } from './stats-schema.ts';

const STATS_SQL = `
SELECT field, value, sum(n)::bigint AS n FROM stats_answers GROUP BY 1, 2
UNION ALL SELECT 'last7Days', NULL, stats_after($1)
UNION ALL SELECT 'last30Days', NULL, stats_after($2)`;

/** $1 and $2: the starts of the 7- and 30-day windows (domain/stats.ts windowStarts); bigint counts arrive as text. */
export async function readStats(pool: pg.Pool, now: number): Promise<WaitlistStats> {
  const { since7, since30 } = windowStarts(now);
  const values = [new Date(since7), new Date(since30)];
  const { rows } = await pool.query<{ field: string; value: string | null; n: string }>({ name: 'waitlist-stats', text: STATS_SQL, values });
  const counts = emptyCounts();
  const windows = { last7Days: 0, last30Days: 0 };
  for (const { field, value, n } of rows) {
    if (field === 'last7Days' || field === 'last30Days') windows[field] = Number(n);
    else {
      // Every record has a language: the total is their sum.
      if (field === 'lang') counts.total += Number(n);
      const group = counts[STATS_FIELDS[field as keyof typeof STATS_FIELDS]];
      // Only the contract's values are ever stored (the API validates them); anything else is not a count it answers.
      if (value !== null && Object.hasOwn(group, value)) group[value] = Number(n);
    }
  }
  return statsOf(counts, windows.last7Days, windows.last30Days, now);
}
