/**
 * `npm run waitlist -- stats [--json] [--verify]`: the statistics the API answers, read the way the
 * running service reads them (PostgreSQL: its counters; JSON: the sidecar's running counts over the
 * operator socket, or the file), and with --verify recounted from the records themselves through
 * domain/stats.ts computeStats, the definition every store is held to. Counts only: no address.
 */
import { isDeepStrictEqual } from 'node:util';
import type { WaitlistStats } from '../../api/contract/index.ts';
import type { WaitlistRecord } from '../../api/sidecar/domain/record.ts';
import { computeStats } from '../../api/sidecar/domain/stats.ts';
import type { OperatorStore } from '../../api/sidecar/store/waitlist-store.ts';
import { EXIT, printJson, type Subcommand } from '../cli.ts';
import { withStore } from './store.ts';

/** Records recounted per computeStats call: memory stays flat at any size. */
const BATCH = 10_000;
/** Recounts tried while sign-ups keep changing the counts under it. */
const ATTEMPTS = 5;

const GROUPS = [
  ['byLang', 'language'],
  ['byRole', 'role'],
  ['byBuilding', 'use case'],
  ['bySource', 'form'],
] as const;

/** Every number of a statistics answer by its name (`total`, `byRole.data`, …). */
function numbersOf(stats: WaitlistStats): Map<string, number> {
  const numbers = new Map<string, number>((['total', 'last7Days', 'last30Days'] as const).map((name) => [name, stats[name]]));
  for (const [group] of GROUPS) for (const [key, n] of Object.entries(stats[group])) numbers.set(`${group}.${key}`, n);
  return numbers;
}

/** Every number of computeStats over all records, a batch at a time (the counts of batches add up). */
async function recount(store: OperatorStore, now: number): Promise<{ recounted: Map<string, number>; records: number }> {
  const recounted = new Map<string, number>();
  let records = 0;
  let batch: WaitlistRecord[] = [];
  const add = () => {
    for (const [name, n] of numbersOf(computeStats(batch, now))) recounted.set(name, (recounted.get(name) ?? 0) + n);
    records += batch.length;
    batch = [];
  };
  for await (const record of store.export()) {
    batch.push(record);
    if (batch.length >= BATCH) add();
  }
  add();
  return { recounted, records };
}

/** Recounts until the answered counts hold still across a whole recount (sign-ups may be arriving). */
async function verify(store: OperatorStore, now: number, answered: WaitlistStats) {
  let before = answered;
  for (let attempt = 1; ; attempt += 1) {
    const { recounted, records } = await recount(store, now);
    const after = await store.stats(now);
    if (isDeepStrictEqual(after, before) || attempt === ATTEMPTS) {
      const differences = [...numbersOf(after)]
        .filter(([count, n]) => recounted.get(count) !== n)
        .map(([count, n]) => ({ count, answered: n, recounted: recounted.get(count) ?? 0 }));
      return { records, differences };
    }
    before = after;
  }
}

export const statsCommand: Subcommand = {
  synopsis: 'stats [--json] [--verify]',
  help: [
    'The statistics the API answers now: total, first sign-ups in the last 7 and 30 days, and the',
    'records per language, role, use case and form ("unanswered": records without that answer).',
    '  --json     the statistics as one JSON document (with --verify: {stats, records, differences})',
    '  --verify   also recount them from every record; exit 1 naming each count that differs (while',
    '             sign-ups arrive, it recounts until the answered counts hold still, at most 5 times)',
  ].join('\n'),
  options: { json: { type: 'boolean' }, verify: { type: 'boolean' } },
  async run({ values }) {
    return withStore('read', async ({ store }) => {
      const now = Date.now();
      const stats = await store.stats(now);
      const verified = values.verify ? await verify(store, now, stats) : undefined;
      if (values.json) printJson(verified ? { stats, ...verified } : stats);
      else {
        const row = (label: string, value: string | number) => console.log(`${label.padEnd(14)}${value}`);
        row('total', stats.total);
        row('last 7 days', stats.last7Days);
        row('last 30 days', stats.last30Days);
        for (const [group, label] of GROUPS) row(label, Object.entries(stats[group]).map(([key, n]) => `${key} ${n}`).join(', '));
        row('computed at', stats.computedAt);
        if (verified) {
          for (const d of verified.differences) console.log(`differs: ${d.count}: answered ${d.answered}, recounted ${d.recounted}`);
          console.log(`verify: ${verified.records} records recounted, ${verified.differences.length} differences`);
        }
      }
      if (verified && verified.differences.length > 0) {
        console.error(`The statistics differ from the records in ${verified.differences.map((d) => d.count).join(', ')}.`);
        return EXIT.error;
      }
      return EXIT.ok;
    });
  },
};
