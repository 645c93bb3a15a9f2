/**
 * `npm run bench` (PostgreSQL part): the sidecar app on the PostgreSQL store beside the JSON store
 * at 100,000 records, in the same run, on the same load, and the statistics' counters
 * (store/postgres/stats-schema.ts) against their references measured in this run:
 * - statistics: 32 concurrent clients polling GET /api/v1/waitlist/stats with a Bearer token at
 *   100,000 and at 1,000,000 records, in alternating rounds (the spread between rounds of one size
 *   is the run's noise), and the statistics query alone (32 callers on a pool of 10, and one
 *   caller) at both sizes, after the same sign-up loads on both;
 *   targets: p99 <= 5 ms at both sizes, the two within the noise (an answer costs the same at any size);
 *   the same pollers against the h3 floor (h3-floor-server.ts: the statistics' JSON, no token, no
 *   store) say how low any h3 app gets on this machine;
 * - sign-ups: 32 concurrent clients posting distinct addresses (all with the same answers: every
 *   sign-up changes the same counters, the hot-row case) for `--duration` s (default 10), with the
 *   counters and on a copy of the same database without them (triggers and index dropped), in
 *   alternating rounds (`--rounds`, default 2); target: sign-ups/s and p99 within 10 %;
 * - sign-ups while 4 clients poll the statistics back to back, against none; target: p99 within 10 %.
 * The JSON store's row: sign-ups, stats, CPU and event-loop stalls, as before.
 *
 * The databases are a throwaway PostgreSQL (test/support/engines/postgres.ts) with durable commits
 * (fsync on, synchronous_commit on), filled by postgres-seed.ts in SQL at schema version 1 and then
 * upgraded (the upgrade that fills the counters is timed). Each sidecar under test is the real app
 * (openBackend, createApp, node:http) in a child process of this script, so the load generator does
 * not share its event loop; it reports that loop's delay (monitorEventLoopDelay). An idle process
 * measures its own delay meanwhile ("idle stall"): what the machine's other work alone does to any
 * event loop, so a sidecar stall near it is the machine's, not the sidecar's.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { Agent, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { toNodeHandler } from 'h3';
import pg from 'pg';
import { loadConfig } from '../../api/config.ts';
import { createApp } from '../../api/sidecar/app.ts';
import { systemClock } from '../../api/sidecar/deps.ts';
import { silentLogger } from '../../api/sidecar/http/log.ts';
import { openBackend } from '../../api/sidecar/store/open-backend.ts';
import { clientsPath, writeClients } from '../../api/sidecar/store/json/clients-file.ts';
import { readStats } from '../../api/sidecar/store/postgres/stats-query.ts';
import { postgresBinDir, startPostgres } from '../../test/support/engines/postgres.ts';
import { accessToken, addBenchClient, benchClient } from './bench-client.ts';
import { answerStats, ask, nextMessage, type LoopStats } from './child-stats.ts';
import { writeStoreFile } from './json-seed.ts';
import { copyWithoutCounters, seedPostgres } from './postgres-seed.ts';
import { load, pollStats, signUps, type Latencies } from './request-load.ts';
import { nodeServer, type Running } from './servers.ts';
import { table } from './table.ts';
import { during, numberOption, phase } from './progress.ts';

const CONNECTIONS = 32;
const PG_LARGE = 1_000_000;
const PG_SMALL = 100_000;
const JSON_RECORDS = 100_000;
/** Clients polling the statistics while sign-ups run. */
const POLLERS = 4;
/** Connections of the pool the statistics query alone is timed through (the sidecar's default is 20). */
const QUERY_POOL = 10;
const duration = numberOption('duration', 10);
const rounds = numberOption('rounds', 2);
const statsSeconds = Math.max(3, Math.round(duration / 2));
/** Clock ticks per second of /proc/<pid>/stat (Linux: 100). */
const TICKS_PER_SECOND = 100;

if (process.argv.includes('--serve')) await serve();
else if (process.argv.includes('--idle')) idle();
else await main();

/**
 * Control role: a process that does nothing but measure its own event-loop delay. Its largest
 * stall is the machine's scheduling noise (other processes on the 2 cores), not the sidecar's work.
 */
function idle(): void {
  answerStats(() => process.exit(0));
  process.send!({ type: 'ready' });
}

/** Child role: the sidecar app on the engine its environment selects, reporting its event-loop delay. */
async function serve(): Promise<void> {
  const config = loadConfig({
    BASE_URL: 'http://127.0.0.1',
    DATA_DIR: process.env.BENCH_DATA_DIR,
    DATABASE_URL: process.env.BENCH_DATABASE_URL,
    RATE_LIMIT_STANDARD: '1000000000',
    RATE_LIMIT_RELAXED: '1000000000',
    LOG_REQUESTS: 'false',
  });
  const started = performance.now();
  const backend = await openBackend(config);
  const openMs = performance.now() - started;
  const { store, keys, clients } = backend;
  const app = createApp({ store, clock: systemClock, keys, clients, config, logger: silentLogger });
  const server = createServer(toNodeHandler(app));
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  answerStats(() => server.close(() => backend.close().then(() => process.exit(0))));
  process.send!({ type: 'ready', url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, openMs });
}

/** A sidecar under test (child process) and a token for its statistics. */
interface Sidecar {
  label: string;
  url: string;
  openMs: number;
  token: string;
  child: ChildProcess;
  dataDir: string;
}

/** One load's numbers, with the sidecar's CPU per request and its largest stall meanwhile. */
interface Measured {
  load: Latencies;
  seconds: number;
  cpuUs: number;
  /** CPU time of the database's server processes per request (robust where wall-clock figures are not). */
  pgCpuUs?: number;
  stallMs: number;
  idleStallMs: number;
}

async function main(): Promise<void> {
  if (!postgresBinDir()) {
    console.log('PostgreSQL store benchmark: skipped, PostgreSQL is not installed (Debian: apt-get install postgresql).');
    return;
  }
  const guard = setTimeout(() => {
    console.error('benchmark took too long: aborting');
    process.exit(1);
  }, (rounds * (4 * duration + 2 * statsSeconds + 12) + 3 * duration + 600) * 1000);
  guard.unref();
  console.log(
    `PostgreSQL store benchmark: ${CONNECTIONS} concurrent clients, ${duration} s per sign-up load, ${statsSeconds} s per statistics load, ` +
      `${rounds} alternating rounds, 127.0.0.1 only, durable commits\n`,
  );
  const engine = await during('starting a throwaway PostgreSQL (fsync on)', startPostgres({ durable: true }));
  // Ctrl-C, a stop or a closed pipe (`| head`) must not leave the throwaway server running.
  const abandon = () => void engine.stop().finally(() => process.exit(130));
  process.once('SIGINT', abandon).once('SIGTERM', abandon);
  process.stdout.once('error', abandon);
  const control = fork(import.meta.filename, ['--idle'], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const sidecars: Sidecar[] = [];
  const results = new Map<string, Measured[]>();
  const record = (key: string, measured: Measured) => results.set(key, [...(results.get(key) ?? []), measured]);
  const queries = new Map<number, Latencies[]>();
  const singles = new Map<number, Latencies[]>();
  const upgrades = new Map<number, number>();
  let lockWaits = { with: 0, without: 0 };
  let floor: Running | undefined;
  try {
    await nextMessage(control, 'ready');
    const urls = new Map<number, string>();
    for (const size of [PG_SMALL, PG_LARGE]) {
      const url = await engine.createDatabase(size === PG_LARGE ? 'bench' : 'bench_small');
      const { upgradeMs } = await during(`PostgreSQL: ${size.toLocaleString('en')} rows by generate_series at schema version 1, then the upgrade that fills the counters`, seedPostgres(url, size));
      phase(`PostgreSQL at ${size.toLocaleString('en')} rows: upgrade to the current schema (counters filled from the records) took ${upgradeMs.toFixed(0)} ms`);
      upgrades.set(size, upgradeMs);
      await addBenchClient(url);
      urls.set(size, url);
    }
    const plainUrl = await during('PostgreSQL: a copy of the 1,000,000 rows without the counters', copyWithoutCounters(engine.url, 'bench', 'bench_plain'));
    // The least any h3 app answers the same pollers with (h3-floor-server.ts): no token, no store.
    floor = await nodeServer('h3 floor', join(import.meta.dirname, 'h3-floor-server.ts'), [], process.env);
    const withCounters = await startSidecar('counters', urls.get(PG_LARGE)!);
    const without = await startSidecar('no counters', plainUrl);
    const small = await startSidecar('100,000', urls.get(PG_SMALL)!);
    sidecars.push(withCounters, without, small);
    const watcher = new pg.Pool({ connectionString: engine.url, max: 1 });
    try {
      for (const sidecar of [withCounters, without, small]) await during(`${sidecar.label}: 1 s warm-up`, signUps(sidecar.url, `warm-${sidecar.label}`, 1, CONNECTIONS));
      for (let round = 1; round <= rounds; round++) {
        const order = round % 2 ? [without, withCounters] : [withCounters, without];
        for (const sidecar of order) {
          const waits = watchLockWaits(watcher, sidecar === withCounters ? 'bench' : 'bench_plain');
          const measured = await signupLoad(sidecar, control, `round ${round}`, 0, watcher, sidecar === withCounters ? 'bench' : 'bench_plain');
          lockWaits = { ...lockWaits, [sidecar === withCounters ? 'with' : 'without']: Math.max(lockWaits[sidecar === withCounters ? 'with' : 'without'], await waits()) };
          record(sidecar === withCounters ? 'signups' : 'signups-plain', measured);
        }
        record('signups-polled', await signupLoad(withCounters, control, `round ${round}`, POLLERS));
        // The same write history on the smaller list (dead row versions in the counters, a fresh index end), so the sizes compare fairly.
        await signupLoad(small, control, `round ${round}`, 0);
        for (const [size, sidecar] of [[PG_SMALL, small], [PG_LARGE, withCounters]] as const) {
          const stats = await during(`${size.toLocaleString('en')} rows, round ${round}: statistics, ${CONNECTIONS} clients for ${statsSeconds} s`, pollStats(sidecar.url, sidecar.token, statsSeconds, CONNECTIONS));
          phase(`  statistics at ${size.toLocaleString('en')} rows: ${(stats.ok / statsSeconds).toFixed(0)}/s, p50 ${stats.p50.toFixed(2)} ms, p99 ${stats.p99.toFixed(2)} ms, non-200 ${stats.failed}`);
          record(`stats-${size}`, { load: stats, seconds: statsSeconds, cpuUs: 0, stallMs: 0, idleStallMs: 0 });
          const query = await during(`${size.toLocaleString('en')} rows, round ${round}: the statistics query alone, ${CONNECTIONS} callers on ${QUERY_POOL} connections`, timeStatsQuery(urls.get(size)!, 3, CONNECTIONS));
          phase(`  query at ${size.toLocaleString('en')} rows: ${(query.ok / 3).toFixed(0)}/s, p50 ${query.p50.toFixed(2)} ms, p99 ${query.p99.toFixed(2)} ms`);
          queries.set(size, [...(queries.get(size) ?? []), query]);
          const alone = await during(`${size.toLocaleString('en')} rows, round ${round}: the statistics query, one caller`, timeStatsQuery(urls.get(size)!, 2, 1));
          phase(`  one caller at ${size.toLocaleString('en')} rows: ${(alone.ok / 2).toFixed(0)}/s, p50 ${alone.p50.toFixed(2)} ms, p99 ${alone.p99.toFixed(2)} ms`);
          singles.set(size, [...(singles.get(size) ?? []), alone]);
        }
        const floorStats = await during(`h3 floor, round ${round}: statistics, ${CONNECTIONS} clients for ${statsSeconds} s`, pollStats(floor.url, withCounters.token, statsSeconds, CONNECTIONS));
        phase(`  statistics from the h3 floor (no work): ${(floorStats.ok / statsSeconds).toFixed(0)}/s, p50 ${floorStats.p50.toFixed(2)} ms, p99 ${floorStats.p99.toFixed(2)} ms`);
        record('stats-floor', { load: floorStats, seconds: statsSeconds, cpuUs: 0, stallMs: 0, idleStallMs: 0 });
      }
    } finally {
      await watcher.end();
    }
  } finally {
    for (const sidecar of sidecars) await stopSidecar(sidecar);
    await floor?.stop();
    if (control.exitCode === null) control.kill('SIGKILL');
    await engine.stop();
  }
  const json = await benchJson();

  console.log('');
  const head = ['store', 'records', 'open ms', 'sign-ups/s', 'p50 ms', 'p99 ms', 'max ms', 'non-200', 'CPU µs/sign-up', 'max stall ms', 'idle stall ms', 'stats req/s', 'stats p50', 'stats p99'];
  const signups = results.get('signups')!;
  const plain = results.get('signups-plain')!;
  const polled = results.get('signups-polled')!;
  const statsSmall = results.get(`stats-${PG_SMALL}`)!;
  const statsLarge = results.get(`stats-${PG_LARGE}`)!;
  const statsFloor = results.get('stats-floor')!;
  table(head, [
    pgRow('PostgreSQL', PG_LARGE, sidecars[0].openMs, signups, statsLarge),
    pgRow('PostgreSQL, no counters', PG_LARGE, sidecars[1].openMs, plain, undefined),
    pgRow('PostgreSQL', PG_SMALL, sidecars[2].openMs, undefined, statsSmall),
    json,
  ]);

  console.log(`\nThe statistics' counters against their references (same run; ${rounds} rounds each, mean; noise = the largest spread between rounds of one measurement):`);
  const p99 = (runs: Measured[]) => mean(runs.map((r) => r.load.p99));
  const rate = (runs: Measured[]) => mean(runs.map((r) => r.load.ok / r.seconds));
  const queryP99 = (size: number) => mean(queries.get(size)!.map((q) => q.p99));
  const noise = Math.max(...[statsSmall, statsLarge].map((runs) => spread(runs.map((r) => r.load.p99))));
  const queryNoise = Math.max(...[PG_SMALL, PG_LARGE].map((size) => spread(queries.get(size)!.map((q) => q.p99))));
  const pgCpu = (runs: Measured[]) => mean(runs.map((r) => r.pgCpuUs ?? 0));
  const singleP50 = (size: number) => mean(singles.get(size)!.map((q) => q.p50));
  const singleNoise = Math.max(...[PG_SMALL, PG_LARGE].map((size) => spread(singles.get(size)!.map((q) => q.p50))));
  table(['measurement', 'reference', 'measured', 'reference value', 'ratio', 'target'], [
    ['stats p99 at 1,000,000 rows, 32 pollers (HTTP)', 'the same at 100,000', ms(p99(statsLarge)), ms(p99(statsSmall)), ratio(p99(statsLarge), p99(statsSmall)), `<= 5 ms both; within noise (${pct(noise)})`],
    ['stats p99 at 1,000,000 rows, 32 pollers (HTTP)', 'the h3 floor (no work), same pollers', ms(p99(statsLarge)), ms(p99(statsFloor)), ratio(p99(statsLarge), p99(statsFloor)), `the floor of h3 on this machine: ${(rate(statsFloor)).toFixed(0)} answers/s against ${rate(statsLarge).toFixed(0)}`],
    ['stats query p99 at 1,000,000 rows (database)', 'the same at 100,000', ms(queryP99(PG_LARGE)), ms(queryP99(PG_SMALL)), ratio(queryP99(PG_LARGE), queryP99(PG_SMALL)), `within noise (${pct(queryNoise)})`],
    ['stats query p50 at 1,000,000 rows, one caller', 'the same at 100,000', ms(singleP50(PG_LARGE)), ms(singleP50(PG_SMALL)), ratio(singleP50(PG_LARGE), singleP50(PG_SMALL)), `within noise (${pct(singleNoise)})`],
    ['sign-ups/s with the counters', 'without them', rate(signups).toFixed(0), rate(plain).toFixed(0), ratio(rate(signups), rate(plain)), '>= 0.90'],
    ['sign-up p99 with the counters', 'without them', ms(p99(signups)), ms(p99(plain)), ratio(p99(signups), p99(plain)), '<= 1.10'],
    ['PostgreSQL CPU per sign-up with the counters', 'without them', us(pgCpu(signups)), us(pgCpu(plain)), ratio(pgCpu(signups), pgCpu(plain)), 'what the triggers cost'],
    [`sign-up p99 while ${POLLERS} clients poll stats`, 'no pollers', ms(p99(polled)), ms(p99(signups)), ratio(p99(polled), p99(signups)), '<= 1.10'],
  ]);
  console.log(
    `\nHot rows: at most ${lockWaits.with.toFixed(1)} sign-up transactions on average waited for a lock with the counters, ` +
      `${lockWaits.without.toFixed(1)} without them (pg_stat_activity sampled every 50 ms).`,
  );
  console.log(
    `Upgrade to the counters (schema version 2, sign-ups wait meanwhile): ${(upgrades.get(PG_SMALL)! / 1000).toFixed(1)} s at ${PG_SMALL.toLocaleString('en')} rows, ` +
      `${(upgrades.get(PG_LARGE)! / 1000).toFixed(1)} s at ${PG_LARGE.toLocaleString('en')}.`,
  );
  console.log(`Sign-ups per round (with / without counters): ${signups.map((r) => rate([r]).toFixed(0)).join(', ')} / ${plain.map((r) => rate([r]).toFixed(0)).join(', ')}.`);
}

function mean(values: number[]): number {
  return values.reduce((a, b) => a + b, 0) / values.length;
}
/** (max - min) / mean of repeated measurements of one thing. */
function spread(values: number[]): number {
  return (Math.max(...values) - Math.min(...values)) / mean(values);
}
function ms(value: number): string {
  return `${value.toFixed(2)} ms`;
}
function us(value: number): string {
  return `${value.toFixed(0)} µs`;
}
function pct(value: number): string {
  return `±${(value * 100).toFixed(0)} %`;
}
function ratio(a: number, b: number): string {
  return (a / b).toFixed(2);
}

function pgRow(name: string, size: number, openMs: number, signups: Measured[] | undefined, stats: Measured[] | undefined): string[] {
  const dash = '-';
  const s = signups && { rate: mean(signups.map((r) => r.load.ok / r.seconds)), p50: mean(signups.map((r) => r.load.p50)), p99: mean(signups.map((r) => r.load.p99)) };
  return [
    name,
    size.toLocaleString('en'),
    openMs.toFixed(0),
    s ? s.rate.toFixed(0) : dash,
    s ? s.p50.toFixed(1) : dash,
    s ? s.p99.toFixed(1) : dash,
    signups ? Math.max(...signups.map((r) => r.load.max)).toFixed(1) : dash,
    String([...(signups ?? []), ...(stats ?? [])].reduce((n, r) => n + r.load.failed, 0)),
    signups ? mean(signups.map((r) => r.cpuUs)).toFixed(0) : dash,
    signups ? Math.max(...signups.map((r) => r.stallMs)).toFixed(1) : dash,
    signups ? Math.max(...signups.map((r) => r.idleStallMs)).toFixed(1) : dash,
    stats ? mean(stats.map((r) => r.load.ok / r.seconds)).toFixed(0) : dash,
    stats ? mean(stats.map((r) => r.load.p50)).toFixed(2) : dash,
    stats ? mean(stats.map((r) => r.load.p99)).toFixed(2) : dash,
  ];
}

async function startSidecar(label: string, url: string): Promise<Sidecar> {
  const dataDir = await mkdtemp(join(tmpdir(), 'bench-pg-'));
  const child = fork(import.meta.filename, ['--serve'], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'], env: { ...process.env, BENCH_DATABASE_URL: url, BENCH_DATA_DIR: dataDir } });
  const ready = await during(`${label}: starting the sidecar`, nextMessage<{ url: string; openMs: number }>(child, 'ready'));
  return { label, url: ready.url, openMs: ready.openMs, token: await accessToken(ready.url), child, dataDir };
}

async function stopSidecar(sidecar: Sidecar): Promise<void> {
  if (sidecar.child.exitCode === null) {
    sidecar.child.send('stop');
    await Promise.race([new Promise((done) => sidecar.child.once('exit', done)), new Promise((done) => setTimeout(done, 5000))]);
    if (sidecar.child.exitCode === null) sidecar.child.kill('SIGKILL');
  }
  await rm(sidecar.dataDir, { recursive: true, force: true });
}

/** Sign-ups for `duration` s, with `pollers` clients polling the statistics meanwhile. */
async function signupLoad(sidecar: Sidecar, control: ChildProcess, round: string, pollers: number, watcher?: pg.Pool, database?: string): Promise<Measured> {
  const pgBefore = watcher && database ? await serverCpuMs(watcher, database) : undefined;
  const label = `${sidecar.label}, ${round}: sign-ups, ${CONNECTIONS} clients for ${duration} s${pollers ? ` while ${pollers} clients poll the statistics` : ''}`;
  const [before] = await Promise.all([ask(sidecar.child, 'reset'), ask(control, 'reset')]);
  const [load, polls] = await during(label, Promise.all([
    signUps(sidecar.url, `run-${sidecar.label.replace(/\W/g, '')}-${round.replace(/\W/g, '')}-${pollers}`, duration, CONNECTIONS),
    pollers ? pollStats(sidecar.url, sidecar.token, duration, pollers) : undefined,
  ]));
  const [after, noise]: LoopStats[] = await Promise.all([ask(sidecar.child, 'stats'), ask(control, 'stats')]);
  phase(
    `  ${(load.ok / duration).toFixed(0)}/s, p50 ${load.p50.toFixed(1)} ms, p99 ${load.p99.toFixed(1)} ms, non-200 ${load.failed}, ` +
      `max stall ${after.maxStallMs.toFixed(1)} ms (idle process: ${noise.maxStallMs.toFixed(1)} ms)` +
      (polls ? `; stats meanwhile ${(polls.ok / duration).toFixed(0)}/s, p99 ${polls.p99.toFixed(2)} ms` : ''),
  );
  const pgCpuUs = pgBefore !== undefined ? (((await serverCpuMs(watcher!, database!)) - pgBefore) * 1000) / Math.max(1, load.ok + load.failed) : undefined;
  if (pgCpuUs !== undefined) phase(`  PostgreSQL CPU per sign-up: ${pgCpuUs.toFixed(0)} µs`);
  return { load, seconds: duration, cpuUs: ((after.cpuMs - before.cpuMs) * 1000) / Math.max(1, load.ok + load.failed), pgCpuUs, stallMs: after.maxStallMs, idleStallMs: noise.maxStallMs };
}

/**
 * CPU time (ms) used so far by the server processes connected to `database` (the sidecar's pool
 * stays connected through a load), read from /proc: the throwaway server runs on this machine.
 */
async function serverCpuMs(watcher: pg.Pool, database: string): Promise<number> {
  const { rows } = await watcher.query<{ pid: number }>('SELECT pid FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()', [database]);
  let ticks = 0;
  for (const { pid } of rows) {
    const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => '');
    // Fields after the command name (which may hold spaces): utime and stime are the 12th and 13th.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    ticks += Number(fields[11] ?? 0) + Number(fields[12] ?? 0);
  }
  return (ticks * 1000) / TICKS_PER_SECOND;
}

/**
 * Samples, every 50 ms, how many sessions of `database` wait for a lock (a hot counter row shows
 * as waits); call the result to stop and get the mean.
 */
function watchLockWaits(pool: pg.Pool, database: string): () => Promise<number> {
  const samples: number[] = [];
  let stopped = false;
  const sampling = (async () => {
    while (!stopped) {
      const { rows } = await pool.query<{ n: string }>("SELECT count(*) AS n FROM pg_stat_activity WHERE datname = $1 AND wait_event_type = 'Lock'", [database]);
      samples.push(Number(rows[0].n));
      await new Promise((done) => setTimeout(done, 50));
    }
  })().catch(() => {}); // the load failed and closed the pool: its own error is the one reported
  return async () => {
    stopped = true;
    await sampling;
    return samples.length ? mean(samples) : 0;
  };
}

/** The statistics query alone (store/postgres/stats-query.ts), `callers` back to back on QUERY_POOL connections at most. */
async function timeStatsQuery(url: string, seconds: number, callers: number): Promise<Latencies> {
  const pool = new pg.Pool({ connectionString: url, max: Math.min(callers, QUERY_POOL) });
  try {
    return await load(callers, seconds, async () => {
      await readStats(pool, Date.now());
      return 200;
    });
  } finally {
    await pool.end();
  }
}

/** The JSON store at JSON_RECORDS records: sign-ups and statistics, as the table's last row. */
async function benchJson(): Promise<string[]> {
  const dir = await mkdtemp(join(tmpdir(), 'bench-json-'));
  const control = fork(import.meta.filename, ['--idle'], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  let sidecar: Sidecar | undefined;
  try {
    await nextMessage(control, 'ready');
    await during(`JSON store: writing ${JSON_RECORDS.toLocaleString('en')} records`, writeStoreFile(dir, JSON_RECORDS));
    await writeClients(clientsPath(dir), [await benchClient()]);
    const child = fork(import.meta.filename, ['--serve'], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'], env: { ...process.env, BENCH_DATA_DIR: dir } });
    const ready = await during('JSON: starting the sidecar', nextMessage<{ url: string; openMs: number }>(child, 'ready'));
    sidecar = { label: 'JSON', url: ready.url, openMs: ready.openMs, token: await accessToken(ready.url), child, dataDir: await mkdtemp(join(tmpdir(), 'bench-json-unused-')) };
    await during('JSON: 1 s warm-up', signUps(sidecar.url, 'warm-json', 1, CONNECTIONS));
    const signups = await signupLoad(sidecar, control, 'one round', 0);
    const stats = await during(`JSON: statistics, ${CONNECTIONS} clients for ${statsSeconds} s`, pollStats(sidecar.url, sidecar.token, statsSeconds, CONNECTIONS));
    return pgRow('JSON', JSON_RECORDS, sidecar.openMs, [signups], [{ load: stats, seconds: statsSeconds, cpuUs: 0, stallMs: 0, idleStallMs: 0 }]);
  } finally {
    if (sidecar) await stopSidecar(sidecar);
    if (control.exitCode === null) control.kill('SIGKILL');
    await rm(dir, { recursive: true, force: true });
  }
}
