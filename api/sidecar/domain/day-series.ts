/**
 * First sign-ups per UTC day, counted by every answer (the report's raw numbers): aggregates only,
 * no address. `daySeriesOf` is the definition both engines are held to; the JSON engine runs it over
 * its records, PostgreSQL groups the same numbers in SQL (store/postgres/waitlist-store.ts).
 */
import { emptyCounts, tally, DAY_MS, type FieldCounts } from './stats.ts';
import type { WaitlistRecord } from './record.ts';

/** A half-open range of first sign-up times, [since, until), as ISO times. */
export interface DayRange {
  since: string;
  until: string;
}

export interface DaySeries {
  /** How many first sign-ups are before `since` (where a cumulative total starts). */
  before: number;
  /** One entry per UTC day (YYYY-MM-DD) with first sign-ups in [since, until), in day order; days with none are left out. */
  days: { day: string; counts: FieldCounts }[];
}

/** The UTC day of an ISO time or ms time, as YYYY-MM-DD. */
export function utcDay(time: string | number): string {
  return new Date(typeof time === 'number' ? time : Date.parse(time)).toISOString().slice(0, 10);
}

/** The ms time of a day's UTC midnight; `offset` whole days later. */
export function dayStart(day: string, offset = 0): number {
  return Date.parse(`${day}T00:00:00.000Z`) + offset * DAY_MS;
}

/** The reference definition: the DaySeries of `records` over `range`. */
export function daySeriesOf(records: Iterable<WaitlistRecord>, range: DayRange): DaySeries {
  const since = Date.parse(range.since);
  const until = Date.parse(range.until);
  let before = 0;
  /** Keyed by whole days since the epoch: cheaper than a date string per record. */
  const byDay = new Map<number, FieldCounts>();
  for (const record of records) {
    const created = Date.parse(record.createdAt);
    if (created >= until) continue;
    if (created < since) {
      before += 1;
      continue;
    }
    const day = Math.floor(created / DAY_MS);
    let counts = byDay.get(day);
    if (!counts) byDay.set(day, (counts = emptyCounts()));
    tally(counts, record, 1);
  }
  const days = [...byDay].sort(([a], [b]) => a - b).map(([day, counts]) => ({ day: utcDay(day * DAY_MS), counts }));
  return { before, days };
}
