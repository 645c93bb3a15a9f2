/**
 * `npm run bench` (sidecar part): sign-ups per second and p50/p99 latency with 32 concurrent
 * clients on stores of 1,000 and 100,000 records (limits raised for the run), the largest
 * event-loop stall of the sidecar meanwhile (perf_hooks monitorEventLoopDelay), and the status
 * probe straight to the sidecar. With `--front=URL --sidecar=URL` it also loads the status probe
 * through a running front and straight to its sidecar and prints the latency the front adds.
 *
 * The sidecar under test is the real app (createApp, node:http, the JSON store with fsync) in a
 * child process of this script, so the load generator does not share its event loop. Everything
 * runs on 127.0.0.1 ephemeral ports and is bounded in time: `--duration=N` seconds per load
 * (default 10), `--sizes=a,b,…` store sizes (default 1000,100000); the whole run aborts after a
 * fixed guard.
 *
 * Targets: at 100,000 records p99 sign-up latency <= 250 ms, no stall over 100 ms;
 * the front adds <= 30 % to the status probe's latency.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import autocannon, { type Result } from 'autocannon';
import { benchOptions, during, numberOption } from './progress.ts';
import { toNodeHandler } from 'h3';
import { loadConfig } from '../../api/config.ts';
import { API_PATHS } from '../../api/contract/index.ts';
import { createApp } from '../../api/sidecar/app.ts';
import { systemClock } from '../../api/sidecar/deps.ts';
import { silentLogger } from '../../api/sidecar/http/log.ts';
import { FileClientDirectory, clientsPath } from '../../api/sidecar/store/json/clients-file.ts';
import { JsonWaitlistStore, STORE_FILE_NAME } from '../../api/sidecar/store/json/waitlist-store.ts';
import { answerStats, ask, nextMessage, type LoopStats } from './child-stats.ts';
import { writeStoreFile } from './json-seed.ts';
import { signUps } from './request-load.ts';

const CONNECTIONS = 32;
const arg = (name: string) => benchOptions()[name];
/** Store sizes to measure; `--sizes=1000,100000,1000000` to look further. */
const SIZES = (arg('sizes') ?? '1000,100000').split(',').map(Number);
const duration = numberOption('duration', 10);

interface ServerStats extends LoopStats {
  commits: number;
  records: number;
}

if (process.argv.includes('--serve')) await serve(process.argv[process.argv.indexOf('--serve') + 1]);
else await main();

/** Child role: the sidecar app on the given data directory, reporting its event-loop delay. */
async function serve(dataDir: string): Promise<void> {
  const started = performance.now();
  const store = await JsonWaitlistStore.open(dataDir);
  const openMs = performance.now() - started;
  const config = loadConfig({ BASE_URL: 'http://127.0.0.1', DATA_DIR: dataDir, RATE_LIMIT_STANDARD: '1000000000', RATE_LIMIT_RELAXED: '1000000000', LOG_REQUESTS: 'false' });
  const keys = { production: randomBytes(32), sandbox: randomBytes(32) };
  const clients = await new FileClientDirectory(clientsPath(dataDir)).load();
  const app = createApp({ store, clock: systemClock, keys, clients, config, logger: silentLogger });
  const server = createServer(toNodeHandler(app));
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  answerStats(
    () => server.close(() => store.close().then(() => process.exit(0))),
    () => ({ commits: store.commits, records: store.size }),
  );
  process.send!({ type: 'ready', url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, openMs });
}

async function main(): Promise<void> {
  const guard = setTimeout(() => {
    console.error('benchmark took too long: aborting');
    process.exit(1);
  }, (SIZES.length * (duration + 10) + 120) * 1000);
  guard.unref();
  console.log(`Sidecar benchmark: ${CONNECTIONS} concurrent clients, ${duration} s per load, 127.0.0.1 only\n`);
  const rows: string[][] = [['records', 'file MB', 'open ms', 'sign-ups/s', 'p50 ms', 'p99 ms', 'max ms', 'non-200', 'commits', 'CPU ms/sign-up', 'max stall ms', 'status req/s', 'status p50', 'status p99', 'CPU µs/status', 'RSS MB']];
  for (const size of SIZES) rows.push(await benchSize(size));
  printTable(rows);
  console.log('\nTargets at 100,000 records: p99 sign-up latency <= 250 ms, no event-loop stall over 100 ms.');

  const front = arg('front');
  const direct = arg('sidecar');
  if (front && direct) {
    const viaSidecar = await during(`status probe straight to ${direct}`, probe(direct));
    const viaFront = await during(`status probe through ${front}`, probe(front));
    const added = (viaFront.latency.average / viaSidecar.latency.average - 1) * 100;
    console.log(`\nStatus probe, ${duration} s each: straight ${viaSidecar.requests.average.toFixed(0)} req/s, p50 ${viaSidecar.latency.p50} ms, p99 ${viaSidecar.latency.p99} ms; ` +
      `through the front ${viaFront.requests.average.toFixed(0)} req/s, p50 ${viaFront.latency.p50} ms, p99 ${viaFront.latency.p99} ms; ` +
      `the front adds ${added.toFixed(0)} % to the mean latency (target <= 30 %).`);
  } else {
    console.log('\n(pass --front=URL --sidecar=URL of a running `npm start` to compare the status probe through the front)');
  }
}

async function benchSize(size: number): Promise<string[]> {
  const dir = await mkdtemp(join(tmpdir(), `bench-sidecar-${size}-`));
  let child: ChildProcess | undefined;
  try {
    await during(`sign-ups at ${size.toLocaleString('en')} records: writing the store file`, writeStoreFile(dir, size));
    const fileMb = (await stat(join(dir, STORE_FILE_NAME))).size / 2 ** 20;
    child = fork(import.meta.filename, ['--serve', dir], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    const ready = await during(`sign-ups at ${size.toLocaleString('en')} records: starting the sidecar`, nextMessage<{ url: string; openMs: number }>(child, 'ready'));
    await during(`sign-ups at ${size.toLocaleString('en')} records: 1 s warm-up`, signUps(ready.url, `warm${size}`, 1, CONNECTIONS));
    const before = await ask<ServerStats>(child, 'reset');
    const load = await during(`sign-ups at ${size.toLocaleString('en')} records: ${CONNECTIONS} clients for ${duration} s`, signUps(ready.url, `run${size}`, duration, CONNECTIONS));
    const loaded = await ask<ServerStats>(child, 'stats');
    const status = await during(`status probe at ${size.toLocaleString('en')} records`, probe(`${ready.url}`));
    const stats = await ask<ServerStats>(child, 'stats');
    const answered = load.ok + load.failed;
    child.send('stop');
    await during(`stopping the sidecar (last commit of ${size.toLocaleString('en')} records)`, new Promise((done) => child!.once('exit', done)));
    return [
      size.toLocaleString('en'),
      fileMb.toFixed(1),
      ready.openMs.toFixed(0),
      (load.ok / duration).toFixed(0),
      load.p50.toFixed(1),
      load.p99.toFixed(1),
      load.max.toFixed(1),
      String(load.failed),
      String(loaded.commits - before.commits),
      ((loaded.cpuMs - before.cpuMs) / answered).toFixed(2),
      loaded.maxStallMs.toFixed(1),
      status.requests.average.toFixed(0),
      String(status.latency.p50),
      String(status.latency.p99),
      (((stats.cpuMs - loaded.cpuMs) * 1000) / status.requests.total).toFixed(0),
      stats.rssMb.toFixed(0),
    ];
  } finally {
    if (child && child.exitCode === null) child.kill('SIGKILL');
    await rm(dir, { recursive: true, force: true });
  }
}

async function probe(base: string): Promise<Result> {
  return await autocannon({ url: `${base.replace(/\/$/, '')}${API_PATHS.status}`, connections: CONNECTIONS, duration: Math.max(3, Math.round(duration / 2)) });
}

function printTable(rows: string[][]): void {
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => r[i].length)));
  for (const row of rows) console.log(row.map((cell, i) => cell.padStart(widths[i])).join('  '));
}
