/**
 * `npm run bench -- stats`: two products on one PostgreSQL database, the statistics exact and
 * immediate on both, then polled at the sidecar's socket against the h3 floor (docs/performance.md).
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { API_PATHS } from '../../api/contract/index.ts';
import { freePort, waitForPort } from '../ports.ts';
import { CONNECTIONS, interleaved, measure, signUps, type Request, type Target } from './load.ts';
import { benchDir, checkouts, during, numberOption, type Checkout } from './options.ts';
import { startPostgres } from './postgres.ts';
import { command, mustRun, productEnv, startProduct, stop, type Product } from './processes.ts';
import { fillPostgres } from './seed.ts';
import { count, ms, ratio, table } from './table.ts';

const RECORDS = numberOption('records', 1_000_000);
const DURATION = numberOption('duration', 5);
const ROUNDS = numberOption('rounds', 3);

const tmp = benchDir('stats');
const postgres = await during('starting PostgreSQL', startPostgres());
const products: Product[] = [];
try {
  const routes: [string, Target, Request][] = [];
  const checks: string[][] = [];
  let body = '';
  for (const checkout of checkouts()) {
    const url = await postgres.database(checkout.label);
    await fillPostgres(checkout, url, RECORDS);
    const [one, two] = [await start(checkout, url, 'one'), await start(checkout, url, 'two')];
    const request = { path: API_PATHS.stats, headers: { authorization: `Bearer ${await token(checkout, url, one)}` } };
    const total = async (product: Product) => ((await (await fetch(product.url + API_PATHS.stats, request)).json()) as { total: number }).total;
    const seen = await total(two);
    const signUp = signUps(`immediate-${checkout.label}`);
    await fetch(one.url + signUp.path, { method: 'POST', headers: signUp.headers, body: signUp.body!(0) });
    const immediate = (await total(two)) === seen + 1 ? 'yes' : 'NO';
    const verify = await during(`${checkout.label}: waitlist stats --verify`, command(checkout, 'scripts/waitlist.ts', ['stats', '--verify'], productEnv({ DATABASE_URL: url })));
    checks.push([checkout.label, count(seen + 1), immediate, verify.code === 0 ? 'yes' : 'NO']);
    body ||= await (await fetch(one.url + API_PATHS.stats, request)).text();
    routes.push([`sidecar (${checkout.label})`, { url: 'http://localhost', socketPath: one.socketPath }, request]);
  }
  table(`Statistics on PostgreSQL, two instances on one database`, ['checkout', 'records', 'a sign-up on one shows on the other at once', 'stats --verify: exact'], checks, 1);

  const floorPort = await freePort();
  const floor = spawn(process.execPath, [path.join(import.meta.dirname, 'h3-floor.ts'), String(floorPort), body], { stdio: 'inherit' });
  try {
    await waitForPort(floorPort, floor);
    routes.push(['h3 floor', { url: `http://127.0.0.1:${floorPort}` }, { path: API_PATHS.stats }]);
    const results = await interleaved(routes.length, ROUNDS, (i, round) => {
      const [name, target, request] = routes[i];
      return during(`statistics, round ${round + 1}/${ROUNDS}: ${name}, ${DURATION} s`, measure(target, request, DURATION));
    });
    const floorResult = results.at(-1)!;
    const rows = routes.map(([name], i) => {
      const m = results[i];
      // The after row, when a before row follows it (the floor is always last).
      const vsBefore = i === 0 && routes.length === 3 ? ratio(m.p99, results[1].p99) : '';
      return [name, count(m.requestsPerSecond), ms(m.p50), ms(m.p99), ratio(m.p99, floorResult.p99), vsBefore, String(m.failed)];
    });
    const head = ['route', 'req/s', 'p50', 'p99', 'p99 / floor', 'p99 after / before', 'errors'];
    table(`Statistics polls at ${count(RECORDS)} records: ${CONNECTIONS} clients, ${DURATION} s per run, median of ${ROUNDS} rounds; latency in ms`, head, rows, 1);
  } finally {
    await stop(floor);
  }
} finally {
  for (const product of products) await product.stop();
  await postgres.stop();
}

async function start(checkout: Checkout, url: string, name: string): Promise<Product> {
  const product = await during(`${checkout.label}: starting product ${name}`, startProduct(checkout, path.join(tmp, `${checkout.label}-${name}`), { DATABASE_URL: url }));
  products.push(product);
  return product;
}

/** A client made by `npm run clients -- create`, and its access token (client credentials, RFC 6749 §4.4). */
async function token(checkout: Checkout, url: string, product: Product): Promise<string> {
  const created = JSON.parse((await mustRun(checkout, 'scripts/clients.ts', ['create', '--json', 'bench'], productEnv({ DATABASE_URL: url }))).stdout);
  const res = await fetch(product.url + API_PATHS.token, {
    method: 'POST',
    headers: { authorization: `Basic ${Buffer.from(`${created.client_id}:${created.client_secret}`).toString('base64')}` },
    body: new URLSearchParams({ grant_type: 'client_credentials' }),
  });
  if (res.status !== 200) throw new Error(`the token request answered ${res.status}`);
  return ((await res.json()) as { access_token: string }).access_token;
}
