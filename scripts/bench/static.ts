/**
 * `npm run bench -- static`: the built site from the product and from nginx (nginx.conf, the
 * configuration docs/static-hosting.md publishes), asked as a browser asks (docs/performance.md).
 */
import path from 'node:path';
import { PAGE_PATHS, THANKS_PATHS, twinPath } from '../../api/contract/index.ts';
import { CONNECTIONS, interleaved, measure } from './load.ts';
import { benchDir, checkouts, during, numberOption } from './options.ts';
import { nginx, startProduct, type Product } from './processes.ts';
import { count, ms, ratio, table } from './table.ts';

const DURATION = numberOption('duration', 5);
const ROUNDS = numberOption('rounds', 3);
const PATHS = [PAGE_PATHS.home.en, THANKS_PATHS.en, twinPath(THANKS_PATHS.en)];
/**
 * What Chromium sends when it opens a page, so the front negotiates as it does for a visitor. No
 * Accept-Encoding: both servers send the same (identity) bytes.
 */
const BROWSER = { accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,image/apng,*/*;q=0.8,application/signed-exchange;v=b3;q=0.7' };

const tmp = benchDir('static');
const servers: Omit<Product, 'socketPath'>[] = [];
try {
  for (const checkout of checkouts()) {
    servers.push(await during(`starting the product (${checkout.label}; it builds its site first if stale)`, startProduct(checkout, path.join(tmp, checkout.label))));
  }
  const dist = path.join(checkouts()[0].root, 'dist');
  servers.push(await nginx(path.join(tmp, 'nginx'), dist));
  const rows: string[][] = [];
  for (const target of PATHS) {
    const results = await interleaved(servers.length, ROUNDS, (i, round) => {
      const label = `${target}, round ${round + 1}/${ROUNDS}: ${servers[i].name}, ${DURATION} s`;
      return during(label, measure({ url: servers[i].url }, { path: target, headers: BROWSER }, DURATION, servers[i].pid));
    });
    const reference = results.at(-1)!;
    const bytes = await Promise.all(servers.map((server) => fetch(server.url + target, { headers: BROWSER }).then(async (res) => (await res.arrayBuffer()).byteLength)));
    servers.forEach((server, i) => {
      const m = results[i];
      const vsBefore = i === 0 && servers.length === 3 ? ratio(m.cpuMicros, results[1].cpuMicros) : '';
      rows.push([target, server.name, count(bytes[i]), count(m.requestsPerSecond), ms(m.p99), m.cpuMicros.toFixed(0), ratio(m.cpuMicros, reference.cpuMicros), vsBefore, String(m.failed)]);
    });
  }
  const title = `Static files: ${CONNECTIONS} connections, ${DURATION} s per run, median of ${ROUNDS} interleaved rounds`;
  table(title, ['path', 'server', 'bytes', 'req/s', 'p99 ms', 'cpu µs/req', 'cpu / nginx', 'cpu after / before', 'errors'], rows);
} finally {
  for (const server of servers.reverse()) await server.stop();
}

