/** Aggregate counts of the waitlist (WaitlistStats in the contract): pure counting, no personal data. */
import { BUILDING, LANGS, ROLES, SOURCES, WaitlistStats } from '../../contract/index.ts';
import type { WaitlistRecord } from './record.ts';

export const DAY_MS = 24 * 60 * 60 * 1000;

function zeros(values: readonly string[], unanswered: boolean): Record<string, number> {
  return Object.fromEntries([...values, ...(unanswered ? ['unanswered'] : [])].map((value) => [value, 0]));
}

/** The counts that do not depend on the time of the question, all zero. */
export function emptyCounts() {
  return {
    total: 0,
    byLang: zeros(LANGS, false),
    byRole: zeros(ROLES, true),
    byBuilding: zeros(BUILDING, true),
    bySource: zeros(SOURCES, true),
  };
}

export type FieldCounts = ReturnType<typeof emptyCounts>;

/** The answers of a record, or of a row of records grouped by them. */
type Answers = { lang: string; role?: string | null; building?: string | null; source?: string | null };

/** Counts `delta` records with these answers in. */
export function tally(counts: FieldCounts, record: Answers, delta: number): void {
  counts.total += delta;
  counts.byLang[record.lang] = (counts.byLang[record.lang] ?? 0) + delta;
  counts.byRole[record.role ?? 'unanswered'] += delta;
  counts.byBuilding[record.building ?? 'unanswered'] += delta;
  counts.bySource[record.source ?? 'unanswered'] += delta;
}

/** The windows of last7Days and last30Days: a record counts when its createdAt is after the start (ms). */
export function windowStarts(now: number): { since7: number; since30: number } {
  return { since7: now - 7 * DAY_MS, since30: now - 30 * DAY_MS };
}

export function statsOf(counts: FieldCounts, last7Days: number, last30Days: number, now: number): WaitlistStats {
  const { total, ...groups } = counts;
  // The contract's order of fields: the groups keep emptyCounts' order.
  return { total, last7Days, last30Days, ...groups, computedAt: new Date(now).toISOString() } as WaitlistStats;
}

/** A full recount: the definition the stores' own counting is held to (test/api/postgres-stats-counters.test.ts holds the PostgreSQL counters to it). */
export function computeStats(records: Iterable<WaitlistRecord>, now: number): WaitlistStats {
  const counts = emptyCounts();
  const { since7, since30 } = windowStarts(now);
  let last7Days = 0;
  let last30Days = 0;
  for (const record of records) {
    tally(counts, record, 1);
    const created = Date.parse(record.createdAt);
    if (created > since30) last30Days += 1;
    if (created > since7) last7Days += 1;
  }
  return statsOf(counts, last7Days, last30Days, now);
}

/** The sandbox's fixed example numbers: the same on every call (docs/api.md); checked at load. */
export const SANDBOX_STATS: WaitlistStats = WaitlistStats.parse({
  total: 1280,
  last7Days: 96,
  last30Days: 410,
  byLang: { en: 905, de: 375 },
  byRole: { developer: 610, platform: 240, data: 150, founder: 120, other: 60, unanswered: 100 },
  byBuilding: { agents: 420, rag: 310, research: 140, extraction: 120, evaluating: 190, unanswered: 100 },
  bySource: { hero: 760, cta: 330, unanswered: 190 },
  computedAt: '2026-11-01T00:00:00.000Z',
});
