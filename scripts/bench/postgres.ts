/**
 * `npm run bench` (PostgreSQL part): the sidecar app on the PostgreSQL store at 1,000,000
 * records beside the JSON store at 100,000, in the same run, on the same load:
 * - sign-ups: 32 concurrent clients posting distinct addresses for `--duration` s (default 10):
 *   sign-ups/s, p50/p99/max latency, the largest event-loop stall of the sidecar meanwhile;
 * - statistics: 32 concurrent clients polling GET /api/v1/waitlist/stats with a Bearer token
 *   (cached answers: store/postgres/stats-cache.ts), p50/p99;
 * - the uncached statistics query (store/postgres/stats-query.ts) timed straight against the database.
 * Targets: PostgreSQL sign-up p99 <= 50 ms, no event-loop stall over 50 ms, stats p99 <= 50 ms.
 *
 * The database is a throwaway PostgreSQL (test/support/engines/postgres.ts) with durable commits
 * (fsync on, synchronous_commit on), filled with generate_series and vacuumed. The sidecar under
 * test is the real app (openBackend, createApp, node:http) in a child process of this script, so the
 * load generator does not share its event loop; it reports that loop's delay (monitorEventLoopDelay).
 * An idle process measures its own delay meanwhile ("idle stall"): what the machine's other work
 * alone does to any event loop, so a sidecar stall near it is the machine's, not the sidecar's.
 */
import { fork } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { Agent, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { toNodeHandler } from 'h3';
import pg from 'pg';
import { loadConfig } from '../../api/config.ts';
import { API_PATHS } from '../../api/contract/index.ts';
import { createApp } from '../../api/sidecar/app.ts';
import { systemClock } from '../../api/sidecar/deps.ts';
import { hashSecret, type ClientRecord } from '../../api/sidecar/domain/clients.ts';
import { CONSENT_TEXT_VERSION } from '../../api/sidecar/domain/consent.ts';
import { silentLogger } from '../../api/sidecar/http/log.ts';
import { openBackend } from '../../api/sidecar/store/open-backend.ts';
import { clientsPath, writeClients } from '../../api/sidecar/store/json/clients-file.ts';
import { PostgresClients } from '../../api/sidecar/store/postgres/clients.ts';
import { migrateSchema } from '../../api/sidecar/store/postgres/schema.ts';
import { STATS_SQL, statsParams } from '../../api/sidecar/store/postgres/stats-query.ts';
import { postgresBinDir, startPostgres } from '../../test/support/engines/postgres.ts';
import { answerStats, ask, nextMessage } from './child-stats.ts';
import { writeStoreFile } from './json-seed.ts';
import { call, load, signUps, type Latencies } from './request-load.ts';
import { table } from './table.ts';
import { during, numberOption, phase } from './progress.ts';

const CONNECTIONS = 32;
const PG_RECORDS = 1_000_000;
const JSON_RECORDS = 100_000;
const duration = numberOption('duration', 10);
const CLIENT = { id: 'bench-client', secret: 'bench-secret-that-is-long-enough-0123456789' };

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

async function main(): Promise<void> {
  if (!postgresBinDir()) {
    console.log('PostgreSQL store benchmark: skipped, PostgreSQL is not installed (Debian: apt-get install postgresql).');
    return;
  }
  const guard = setTimeout(() => {
    console.error('benchmark took too long: aborting');
    process.exit(1);
  }, (4 * duration + 300) * 1000);
  guard.unref();
  console.log(`PostgreSQL store benchmark: ${CONNECTIONS} concurrent clients, ${duration} s per load, 127.0.0.1 only, durable commits\n`);
  const head = ['store', 'records', 'open ms', 'sign-ups/s', 'p50 ms', 'p99 ms', 'max ms', 'non-200', 'CPU µs/sign-up', 'max stall ms', 'idle stall ms', 'stats req/s', 'stats p50', 'stats p99', 'RSS MB'];
  const rows: string[][] = [];
  const engine = await during('starting a throwaway PostgreSQL (fsync on)', startPostgres({ durable: true }));
  // Ctrl-C, a stop or a closed pipe (`| head`) must not leave the throwaway server running.
  const abandon = () => void engine.stop().finally(() => process.exit(130));
  process.once('SIGINT', abandon).once('SIGTERM', abandon);
  process.stdout.once('error', abandon);
  let uncached: number[] = [];
  try {
    const url = await engine.createDatabase('bench');
    const pool = new pg.Pool({ connectionString: url, max: 2 });
    try {
      await fillPostgres(pool);
      rows.push(await benchEngine('PostgreSQL', PG_RECORDS, { BENCH_DATABASE_URL: url, BENCH_DATA_DIR: await mkdtemp(join(tmpdir(), 'bench-pg-')) }));
      uncached = await during('stats: the uncached query, 5 times', timeStatsQuery(pool, 5));
    } finally {
      await pool.end();
    }
  } finally {
    await engine.stop();
  }
  const dir = await mkdtemp(join(tmpdir(), 'bench-json-'));
  try {
    await during(`JSON store: writing ${JSON_RECORDS.toLocaleString('en')} records`, seedJson(dir, JSON_RECORDS));
    rows.push(await benchEngine('JSON', JSON_RECORDS, { BENCH_DATA_DIR: dir }));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
  console.log('');
  table(head, rows);
  const sorted = [...uncached].sort((a, b) => a - b);
  console.log(`\nUncached statistics query at ${PG_RECORDS.toLocaleString('en')} rows (one pass, count(*) FILTER): min ${sorted[0].toFixed(0)} ms, median ${sorted[Math.floor(sorted.length / 2)].toFixed(0)} ms, max ${sorted.at(-1)!.toFixed(0)} ms.`);
  console.log('Targets (PostgreSQL, 1,000,000 records): sign-up p99 <= 50 ms, no event-loop stall over 50 ms, stats p99 <= 50 ms (cached).');
}

/** 1,000,000 rows by generate_series, first sign-ups spread over 60 days, then VACUUM ANALYZE; and the bench client. */
async function fillPostgres(pool: pg.Pool): Promise<void> {
  await migrateSchema(pool);
  await during(`PostgreSQL: filling ${PG_RECORDS.toLocaleString('en')} rows with generate_series`, async () => {
    await pool.query(
      `INSERT INTO waitlist
       SELECT 'seed' || i || '@example.com', t, t, t, CASE WHEN i % 3 = 0 THEN 'de' ELSE 'en' END,
              'developer', 'agents', 'hero', 'hero', 'form', 'en', $2
       FROM generate_series(1, $1) AS i, LATERAL (SELECT now() - (i % 60) * interval '1 day' AS t) AS times`,
      [PG_RECORDS, CONSENT_TEXT_VERSION],
    );
    await pool.query('VACUUM ANALYZE waitlist');
  });
  await new PostgresClients(pool).create(await benchClient());
}

async function benchClient(): Promise<ClientRecord> {
  return { id: CLIENT.id, name: 'bench', createdAt: new Date().toISOString(), scopes: ['waitlist:stats:read'], secretHash: await hashSecret(CLIENT.secret) };
}

/** A store file of `size` records, as the sidecar writes it, and the bench client. */
async function seedJson(dir: string, size: number): Promise<void> {
  await writeStoreFile(dir, size);
  await writeClients(clientsPath(dir), [await benchClient()]);
}

async function benchEngine(name: string, size: number, env: Record<string, string>): Promise<string[]> {
  const label = `${name} at ${size.toLocaleString('en')} records`;
  const child = fork(import.meta.filename, ['--serve'], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'], env: { ...process.env, ...env } });
  const control = fork(import.meta.filename, ['--idle'], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  try {
    await nextMessage(control, 'ready');
    const ready = await during(`${label}: starting the sidecar`, nextMessage<{ url: string; openMs: number }>(child, 'ready'));
    await during(`${label}: 1 s warm-up`, signUps(ready.url, `warm-${name}`, 1, CONNECTIONS));
    const [before] = await Promise.all([ask(child, 'reset'), ask(control, 'reset')]);
    const load = await during(`${label}: sign-ups, ${CONNECTIONS} clients for ${duration} s`, signUps(ready.url, `run-${name}`, duration, CONNECTIONS));
    const [loaded, noise] = await Promise.all([ask(child, 'stats'), ask(control, 'stats')]);
    phase(
      `${label}: sign-ups ${(load.ok / duration).toFixed(0)}/s, p50 ${load.p50.toFixed(1)} ms, p99 ${load.p99.toFixed(1)} ms, ` +
        `max stall ${loaded.maxStallMs.toFixed(1)} ms (an idle process meanwhile: ${noise.maxStallMs.toFixed(1)} ms)`,
    );
    const token = await accessToken(ready.url);
    // One request first: the measured polls are of the cached answer (the uncached query is timed below).
    const cold = performance.now();
    const first = await call(new Agent(), new URL(API_PATHS.stats, ready.url), 'GET', { authorization: `Bearer ${token}` });
    phase(`${label}: first statistics request (cold cache): ${first} in ${(performance.now() - cold).toFixed(0)} ms`);
    const statsSeconds = Math.max(3, Math.round(duration / 2));
    const stats = await during(`${label}: statistics, ${CONNECTIONS} clients for ${statsSeconds} s`, pollStats(ready.url, token, statsSeconds));
    const after = await ask(child, 'stats');
    phase(`${label}: stats ${(stats.ok / statsSeconds).toFixed(0)}/s, p50 ${stats.p50.toFixed(2)} ms, p99 ${stats.p99.toFixed(2)} ms`);
    child.send('stop');
    await new Promise((done) => child.once('exit', done));
    return [
      name,
      size.toLocaleString('en'),
      ready.openMs.toFixed(0),
      (load.ok / duration).toFixed(0),
      load.p50.toFixed(1),
      load.p99.toFixed(1),
      load.max.toFixed(1),
      String(load.failed + stats.failed),
      (((loaded.cpuMs - before.cpuMs) * 1000) / Math.max(1, load.ok + load.failed)).toFixed(0),
      loaded.maxStallMs.toFixed(1),
      noise.maxStallMs.toFixed(1),
      (stats.ok / statsSeconds).toFixed(0),
      stats.p50.toFixed(2),
      stats.p99.toFixed(2),
      after.rssMb.toFixed(0),
    ];
  } finally {
    if (child.exitCode === null) child.kill('SIGKILL');
    if (control.exitCode === null) control.kill('SIGKILL');
    if (env.BENCH_DATABASE_URL) await rm(env.BENCH_DATA_DIR, { recursive: true, force: true });
  }
}

async function timeStatsQuery(pool: pg.Pool, times: number): Promise<number[]> {
  const took: number[] = [];
  for (let i = 0; i < times; i++) {
    const started = performance.now();
    await pool.query(STATS_SQL, statsParams(Date.now()));
    took.push(performance.now() - started);
  }
  return took;
}

async function accessToken(url: string): Promise<string> {
  const res = await fetch(new URL(API_PATHS.token, url), {
    method: 'POST',
    headers: { authorization: `Basic ${Buffer.from(`${CLIENT.id}:${CLIENT.secret}`).toString('base64')}`, 'content-type': 'application/x-www-form-urlencoded' },
    body: 'grant_type=client_credentials',
  });
  if (res.status !== 200) throw new Error(`token request answered ${res.status}`);
  return ((await res.json()) as { access_token: string }).access_token;
}

function pollStats(url: string, token: string, seconds: number): Promise<Latencies> {
  const target = new URL(API_PATHS.stats, url);
  return load(CONNECTIONS, seconds, (agent) => call(agent, target, 'GET', { authorization: `Bearer ${token}` }));
}

