/**
 * `npm run bench -- signups`: 32 clients posting sign-ups through the front, each store at 1,000
 * records and at its envelope size, against the envelope's p99 (docs/performance.md).
 */
import path from 'node:path';
import { CONNECTIONS, measure, signUps, type Measured } from './load.ts';
import { benchDir, checkouts, during, numberOption, phase, stores, type Checkout } from './options.ts';
import { startPostgres } from './postgres.ts';
import { startProduct } from './processes.ts';
import { seedStore } from './seed.ts';
import { count, ms, ratio, table } from './table.ts';

const DURATION = numberOption('duration', 10);
const SMALL = 1_000;
const LARGE = { json: numberOption('records', 100_000), postgres: numberOption('records', 1_000_000) };
/** The envelope's sign-up p99 for the JSON store, in ms. */
const P99_LIMIT_MS = 250;

const tmp = benchDir('signups');
const postgres = stores().includes('postgres') ? await during('starting PostgreSQL', startPostgres()) : undefined;
const rows: string[][] = [];
try {
  for (const store of stores()) {
    const sizes = [SMALL, LARGE[store]];
    const results: Measured[][] = [];
    for (const checkout of checkouts()) results.push([await signUpsAt(store, checkout, SMALL), await signUpsAt(store, checkout, LARGE[store])]);
    checkouts().forEach((checkout, k) => {
      sizes.forEach((records, size) => {
        const m = results[k][size];
        const held = store === 'json' ? (m.p99 <= P99_LIMIT_MS ? 'yes' : 'NO') : '';
        const vsBefore = k === 0 && results.length === 2 ? `${ratio(m.p99, results[1][size].p99)} / ${ratio(m.cpuMicros, results[1][size].cpuMicros)}` : '';
        rows.push([store, count(records), checkout.label, count(m.requestsPerSecond), ms(m.p50), ms(m.p99), ratio(m.p99, results[k][0].p99), held, m.cpuMicros.toFixed(0), vsBefore, String(m.failed)]);
      });
    });
  }
  const head = ['store', 'records', 'checkout', 'sign-ups/s', 'p50 ms', 'p99 ms', `p99 / at ${count(SMALL)}`, `p99 <= ${P99_LIMIT_MS} ms`, 'cpu µs/sign-up', 'after / before p99 / cpu', 'errors'];
  table(`Sign-ups through the front: ${CONNECTIONS} clients back to back, ${DURATION} s per store and size`, head, rows, 3);
} finally {
  await postgres?.stop();
}

/** The product on a store of `records` records, loaded once; then stopped. */
async function signUpsAt(store: 'json' | 'postgres', checkout: Checkout, records: number) {
  const name = `${store}-${records}-${checkout.label}`;
  const dataDir = path.join(tmp, name);
  const settings = await seedStore(store, checkout, postgres, dataDir, records);
  const product = await during(`${checkout.label}: starting the product on ${store}`, startProduct(checkout, dataDir, settings));
  try {
    const m = await during(`${checkout.label}: sign-ups on ${store} at ${count(records)} records, ${DURATION} s`, measure({ url: product.url }, signUps(name), DURATION, product.pid));
    phase(`  p99 ${ms(m.p99)} ms, ${count(m.requestsPerSecond)} sign-ups/s`);
    return m;
  } finally {
    await product.stop();
  }
}
