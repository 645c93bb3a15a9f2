/**
 * The statistics of the PostgreSQL store in ONE query: a single pass over `waitlist` with one
 * `count(*) FILTER (…)` per number (docs/api.md, "Statistics on PostgreSQL"). The columns are
 * generated from the contract's enums, so a new role or language is counted without a change here.
 * The 7- and 30-day counts use the same rule as domain/stats.ts: first sign-up strictly after
 * now minus 7 (30) days.
 */
import { BUILDING, LANGS, ROLES, SOURCES, type WaitlistStats } from '../../../contract/index.ts';

const DAY_MS = 24 * 60 * 60 * 1000;

/** [stats field, table column, enum values, counts unanswered]. */
const GROUPS = [
  ['byLang', 'lang', LANGS, false],
  ['byRole', 'role', ROLES, true],
  ['byBuilding', 'building', BUILDING, true],
  ['bySource', 'source', SOURCES, true],
] as const;

/** An enum value as an SQL literal; the contract's values are plain words, checked anyway. */
function literal(value: string): string {
  if (!/^[a-z0-9_-]+$/.test(value)) throw new Error(`unexpected enum value ${value}`);
  return `'${value}'`;
}

const COLUMNS: { group?: string; key?: string; sql: string }[] = [
  { key: 'total', sql: 'count(*)' },
  { key: 'last7Days', sql: 'count(*) FILTER (WHERE created_at > $1)' },
  { key: 'last30Days', sql: 'count(*) FILTER (WHERE created_at > $2)' },
  ...GROUPS.flatMap(([group, column, values, unanswered]) => [
    ...values.map((value) => ({ group, key: value, sql: `count(*) FILTER (WHERE ${column} = ${literal(value)})` })),
    ...(unanswered ? [{ group, key: 'unanswered', sql: `count(*) FILTER (WHERE ${column} IS NULL)` }] : []),
  ]),
];

/** The query text; parameters: $1 = now − 7 days, $2 = now − 30 days. */
export const STATS_SQL = `SELECT ${COLUMNS.map((column, i) => `${column.sql} AS c${i}`).join(', ')} FROM waitlist`;

export function statsParams(now: number): [Date, Date] {
  return [new Date(now - 7 * DAY_MS), new Date(now - 30 * DAY_MS)];
}

/** The row of STATS_SQL (bigint counts arrive as text) as WaitlistStats. */
export function statsFromRow(row: Record<string, string>, now: number): WaitlistStats {
  const stats: Record<string, unknown> = {};
  for (const [group] of GROUPS) stats[group] = {};
  COLUMNS.forEach((column, i) => {
    const value = Number(row[`c${i}`]);
    if (column.group) (stats[column.group] as Record<string, number>)[column.key!] = value;
    else stats[column.key!] = value;
  });
  stats.computedAt = new Date(now).toISOString();
  return {
    total: stats.total,
    last7Days: stats.last7Days,
    last30Days: stats.last30Days,
    byLang: stats.byLang,
    byRole: stats.byRole,
    byBuilding: stats.byBuilding,
    bySource: stats.bySource,
    computedAt: stats.computedAt,
  } as WaitlistStats;
}
