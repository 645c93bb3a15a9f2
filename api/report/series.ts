/**
 * The report's numbers from the store's per-day counts (domain/day-series.ts): sign-ups per day,
 * their trailing 7-day average, the cumulative total, per day by each answer, the share of each
 * answer, and this week / these 30 days against the ones before. This object is also the json
 * format (docs/operator.md, "The report"). Pure; aggregates only.
 */
import { dayStart, utcDay, type DaySeries } from '../sidecar/domain/day-series.ts';
import { emptyCounts, type FieldCounts } from '../sidecar/domain/stats.ts';
import { AVERAGE_DAYS, daysBetween, firstNeededDay, type ReportPeriod } from './period.ts';
import type { Recent } from './recent.ts';

/** The questions, in the order the report shows them; keys as in the statistics (WaitlistStats). */
export const DIMENSIONS = [
  { key: 'byLang', title: 'Language' },
  { key: 'byRole', title: 'Role' },
  { key: 'byBuilding', title: 'Use case' },
  { key: 'bySource', title: 'Form' },
] as const;
export type DimensionKey = (typeof DIMENSIONS)[number]['key'];

const round = (value: number, decimals: number) => Math.round(value * 10 ** decimals) / 10 ** decimals;
const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);

/**
 * One question over the days shown: every answer in the contract's order, then `unanswered` where
 * the question is optional; per answer its sign-ups per day (aligned with the report's days), in the
 * period, and as a percentage of the period's sign-ups, one decimal (0 when there are none).
 */
function dimensionOf(key: DimensionKey, title: string, shown: FieldCounts[], periodTotal: number) {
  const answers = Object.keys(emptyCounts()[key]);
  const perDay = Object.fromEntries(answers.map((a) => [a, shown.map((c) => c[key][a] ?? 0)]));
  const totals = Object.fromEntries(answers.map((a) => [a, sum(perDay[a])]));
  const percent = Object.fromEntries(answers.map((a) => [a, periodTotal ? round((totals[a] / periodTotal) * 100, 1) : 0]));
  return { title, answers, perDay, totals, percent };
}

/**
 * `series` must come from the store over storeRange(period), `recent` from the records as of
 * period.now. Each number's meaning: docs/operator.md, "What each number means".
 */
export function buildReport(period: ReportPeriod, series: DaySeries, recent: Recent) {
  const first = firstNeededDay(period);
  const length = daysBetween(first, period.to) + 1;
  // Every needed day, oldest first, zeros where the store had none.
  const counts: FieldCounts[] = Array.from({ length }, () => emptyCounts());
  for (const { day, counts: c } of series.days) {
    const i = daysBetween(first, day);
    if (i >= 0 && i < length) counts[i] = c;
  }
  const all = counts.map((c) => c.total);
  const start = daysBetween(first, period.from);
  const shown = counts.slice(start);
  const signups = all.slice(start);
  const before = series.before + sum(all.slice(0, start));
  let running = before;
  const cumulative = signups.map((n) => (running += n));
  const average7 = signups.map((_, i) => round(sum(all.slice(start + i - AVERAGE_DAYS + 1, start + i + 1)) / AVERAGE_DAYS, 2));
  const periodTotal = sum(signups);
  const dimensions = Object.fromEntries(DIMENSIONS.map(({ key, title }) => [key, dimensionOf(key, title, shown, periodTotal)]));
  const window = (days: number, back: number) => {
    const end = length - 1 - back;
    return { from: utcDay(dayStart(first, end - days + 1)), to: utcDay(dayStart(first, end)), signups: sum(all.slice(end - days + 1, end + 1)) };
  };
  // The change as a percentage of the previous count, one decimal; null when that is 0.
  const compare = (days: number) => {
    const current = window(days, 0);
    const previous = window(days, days);
    const change = current.signups - previous.signups;
    return { current, previous, change, changePercent: previous.signups ? round((change / previous.signups) * 100, 1) : null };
  };
  return {
    format: 'waitlist-report' as const,
    version: 1 as const,
    period,
    totals: { before, period: periodTotal, all: before + periodTotal },
    days: Array.from({ length: period.days }, (_, i) => utcDay(dayStart(period.from, i))),
    signups,
    average7,
    cumulative,
    dimensions: dimensions as Record<DimensionKey, ReturnType<typeof dimensionOf>>,
    comparisons: { week: compare(7), month: compare(30) },
    throwaway: recent.throwaway,
    perHour: { hours: recent.hours, signups: recent.perHour },
  };
}

export type Report = ReturnType<typeof buildReport>;
export type Comparison = Report['comparisons']['week'];
