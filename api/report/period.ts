/**
 * Which days a report covers and which range it asks the store for. Days are UTC calendar days;
 * the last one is the day of `now`, counted up to `now` itself. Pure: `now` is passed in.
 */
import { dayStart, utcDay, type DayRange } from '../sidecar/domain/day-series.ts';
import { DAY_MS } from '../sidecar/domain/stats.ts';

/** Default length of a report, in days: a quarter. */
export const DEFAULT_DAYS = 90;
/** Longest report: ten years of days (charts and tables stay readable, memory small). */
export const MAX_DAYS = 3660;
/** Days the comparisons need before the day of `now`: the last 30 days and the 30 before. */
const COMPARED_DAYS = 60;
/** Days of the trailing average. */
export const AVERAGE_DAYS = 7;

/**
 * From `--days` (default DEFAULT_DAYS) or `--since` (a UTC day): the period ending on the day of
 * `now`, the time the report describes (first sign-ups after it are not counted); `from` and `to`
 * are the first and last day shown (YYYY-MM-DD, UTC), both included.
 */
export function reportPeriod(now: number, choice: { days?: number; since?: string }) {
  const to = utcDay(now);
  const from = choice.since !== undefined ? utcDay(choice.since) : utcDay(dayStart(to, 1 - (choice.days ?? DEFAULT_DAYS)));
  return { now: new Date(now).toISOString(), from, to, days: daysBetween(from, to) + 1 };
}

export type ReportPeriod = ReturnType<typeof reportPeriod>;

/** Whole days from `a` to `b` (both YYYY-MM-DD). */
export function daysBetween(a: string, b: string): number {
  return Math.round((dayStart(b) - dayStart(a)) / DAY_MS);
}

/** The first day the report needs: the average's first window and the comparisons' earliest day. */
export function firstNeededDay(period: ReportPeriod): string {
  const forAverage = dayStart(period.from, 1 - AVERAGE_DAYS);
  const forComparisons = dayStart(period.to, 1 - COMPARED_DAYS);
  return utcDay(Math.min(forAverage, forComparisons));
}

/** What the report asks the store: from the first needed day's midnight to `now`, `now` included. */
export function storeRange(period: ReportPeriod): DayRange {
  return { since: new Date(dayStart(firstNeededDay(period))).toISOString(), until: new Date(Date.parse(period.now) + 1).toISOString() };
}
