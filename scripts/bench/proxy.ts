/**
 * `npm run bench -- proxy`: the status probe and a sign-up through the front and straight to the
 * sidecar's socket; CPU per request says what the hop costs (docs/performance.md).
 */
import path from 'node:path';
import { API_PATHS } from '../../api/contract/index.ts';
import { CONNECTIONS, interleaved, measure, signUps, type Request, type Target } from './load.ts';
import { benchDir, checkouts, during, numberOption } from './options.ts';
import { startProduct, type Product } from './processes.ts';
import { count, ms, ratio, table } from './table.ts';

const DURATION = numberOption('duration', 5);
const ROUNDS = numberOption('rounds', 3);

const tmp = benchDir('proxy');
const products: Product[] = [];
try {
  for (const checkout of checkouts()) {
    products.push(await during(`starting the product (${checkout.label})`, startProduct(checkout, path.join(tmp, checkout.label))));
  }
  const requests: [string, (run: number) => Request][] = [
    ['status', () => ({ path: API_PATHS.status })],
    ['sign-up', (run) => signUps(`run${run}`)],
  ];
  const rows: string[][] = [];
  for (const [name, request] of requests) {
    const routes = products.flatMap((product, k): [string, Target, number][] => [
      [`front (${checkouts()[k].label})`, { url: product.url }, product.pid],
      [`sidecar (${checkouts()[k].label})`, { url: 'http://localhost', socketPath: product.socketPath }, product.pid],
    ]);
    let run = 0;
    const results = await interleaved(routes.length, ROUNDS, (i, round) => {
      const label = `${name}, round ${round + 1}/${ROUNDS}: ${routes[i][0]}, ${DURATION} s`;
      return during(label, measure(routes[i][1], request(run++), DURATION, routes[i][2]));
    });
    routes.forEach(([route], i) => {
      const m = results[i];
      // Rows come in pairs, the front's then its sidecar's.
      const direct = i % 2 === 0 ? results[i + 1] : undefined;
      const vsBefore = i === 0 && products.length === 2 ? ratio(m.cpuMicros, results[2].cpuMicros) : '';
      const cpu = direct ? `${m.cpuMicros.toFixed(0)} (+${(m.cpuMicros - direct.cpuMicros).toFixed(0)})` : m.cpuMicros.toFixed(0);
      rows.push([name, route, count(m.requestsPerSecond), ms(m.p50), ms(m.p99), direct ? ratio(m.p50, direct.p50) : '', direct ? ratio(m.p99, direct.p99) : '', cpu, vsBefore, String(m.failed)]);
    });
  }
  const title = `The proxy: ${CONNECTIONS} connections, ${DURATION} s per run, median of ${ROUNDS} interleaved rounds; latency in ms; CPU of front and sidecar per request (the hop's share)`;
  table(title, ['request', 'route', 'req/s', 'p50', 'p99', 'p50 / direct', 'p99 / direct', 'cpu µs/req', 'cpu after / before', 'errors'], rows);
} finally {
  for (const product of products) await product.stop();
}
