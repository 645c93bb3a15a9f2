/**
 * `npm run bench -- report`: `waitlist report` (HTML) on each store at its envelope size, wall
 * time and peak memory against `waitlist count` on the same data (docs/performance.md).
 */
import path from 'node:path';
import { benchDir, checkouts, during, numberOption, stores } from './options.ts';
import { startPostgres } from './postgres.ts';
import { mustRun, productEnv, type CommandRun } from './processes.ts';
import { seedStore } from './seed.ts';
import { count, ratio, table } from './table.ts';

const ROUNDS = numberOption('rounds', 3);
const RECORDS = { json: numberOption('records', 100_000), postgres: numberOption('records', 1_000_000) };

const tmp = benchDir('report');
const postgres = stores().includes('postgres') ? await during('starting PostgreSQL', startPostgres()) : undefined;
try {
  const rows: string[][] = [];
  for (const store of stores()) {
    const reports: CommandRun[] = [];
    for (const checkout of checkouts()) {
      const name = `${store}_${checkout.label}`;
      const env = productEnv(await seedStore(store, checkout, postgres, path.join(tmp, name), RECORDS[store]));
      const runs = { report: [] as CommandRun[], count: [] as CommandRun[] };
      for (let round = 0; round < ROUNDS; round++) {
        for (const kind of ['report', 'count'] as const) {
          const args = kind === 'report' ? ['report', '--out', path.join(tmp, `${name}.html`)] : ['count'];
          runs[kind].push(await during(`${checkout.label}: waitlist ${kind} on ${store}, round ${round + 1}/${ROUNDS}`, mustRun(checkout, 'scripts/waitlist.ts', args, env)));
        }
      }
      const [report, reference] = [middle(runs.report), middle(runs.count)];
      reports.push(report);
      rows.push([store, count(RECORDS[store]), checkout.label, report.seconds.toFixed(2), report.peakMb.toFixed(0), reference.seconds.toFixed(2), reference.peakMb.toFixed(0), ratio(report.seconds, reference.seconds), '']);
    }
    // The after row, with the report's time and memory against the before row's.
    if (reports.length === 2) rows.at(-2)![8] = `${ratio(reports[0].seconds, reports[1].seconds)} / ${ratio(reports[0].peakMb, reports[1].peakMb)}`;
  }
  const head = ['store', 'records', 'checkout', 'report s', 'report MB', 'count s', 'count MB', 'report / count time', 'after / before time / memory'];
  table(`The report command (HTML), median of ${ROUNDS} runs; peak memory of the whole command`, head, rows, 3);
} finally {
  await postgres?.stop();
}

/** The run of median wall time. */
function middle(runs: CommandRun[]): CommandRun {
  return [...runs].sort((a, b) => a.seconds - b.seconds)[Math.floor(runs.length / 2)];
}
