/**
 * `npm run bench` (sign-up peers; alone: `npm run bench -- signup-peers`): what a JSON sign-up costs
 * through the product against its peers on the same PostgreSQL (durable commits: fsync and
 * synchronous_commit on), in interleaved rounds (`--rounds`, default 2; `--duration` s each,
 * default 5), 32 kept-alive clients each posting distinct addresses:
 * - the product: the front and the sidecar on its Unix socket, the request line on (to a file),
 *   rate limits in Redis (limits raised so none answers 429; in memory when Redis is missing);
 * - the sidecar alone over TCP (in-memory limits);
 * - the plain peer (plain-signup-server.ts): node:http, a pg pool of the same size, the contract's
 *   schema and the store's own statement, nothing else: the reference of every ratio;
 * - the h3 floor (h3-floor-server.ts): h3 on the same node adapter answering the same JSON with no work;
 * - pgbench running the store's statement (pgbench.ts): the database's ceiling.
 * Printed: sign-ups/s (median of the rounds), p50/p99, and the ratios to the plain peer; then, from
 * a second load in each round at the same fixed rate for all (`--signup-rate`, default 200/s, below
 * what each contender answers), the CPU µs per sign-up of each process (front, sidecar or server,
 * Redis, PostgreSQL with its backends), less what each process spends idle (measured once before
 * the rounds): at equal work per second a busy machine's noise and the per-wake-up costs of a
 * slower server weigh the same on every contender.
 * `--before=DIR`: a checkout of another commit (for example `git worktree add /tmp/before HEAD`,
 * with node_modules linked in) runs as one more contender, "product (before)", in the same rounds:
 * a change's before and after measured in one run.
 * The database starts with `--signup-records` rows (default 100,000; the full measurement is
 * `--signup-records=1000000`), filled in SQL with the statistics' counters (postgres-seed.ts).
 */
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { postgresBinDir, startPostgres } from '../../test/support/engines/postgres.ts';
import { REDIS_BINARY, startRedis, type RedisEngine } from '../../test/support/engines/redis.ts';
import { seedPostgres } from './postgres-seed.ts';
import { pgbenchLoad } from './pgbench.ts';
import { benchOptions, during, numberOption, phase } from './progress.ts';
import { nodeServer, sidecar, type Running } from './servers.ts';
import { idleMicrosPerSecond, signupLoad, type Counted, type SignupRun } from './signup-load.ts';
import { table } from './table.ts';

const ROOT = path.resolve(import.meta.dirname, '..', '..');
const CONNECTIONS = 32;
const duration = numberOption('duration', 5);
const rounds = numberOption('rounds', 2);
const records = numberOption('signup-records', 100_000);
const fixedRate = numberOption('signup-rate', 200);
const before = benchOptions().before;

interface Contender {
  name: string;
  /** The processes whose CPU is counted, one per column. */
  processes: Counted[];
  /** Per counted process: its column. */
  columns: string[];
  measure(rate?: number): Promise<SignupRun>;
}

const COLUMNS = ['front', 'server', 'Redis', 'PostgreSQL'];

async function main(): Promise<void> {
  const bin = postgresBinDir();
  if (!bin) {
    console.log('Sign-up peers: skipped, PostgreSQL is not installed (Debian: apt-get install postgresql).');
    return;
  }
  const guard = setTimeout(() => {
    console.error('benchmark took too long: aborting');
    process.exit(1);
  }, (rounds * 5 * 2 * (duration + 4) + 600) * 1000);
  guard.unref();
  console.log(`Sign-up peers: ${CONNECTIONS} clients, ${rounds} interleaved rounds of ${duration} s, PostgreSQL with durable commits from ${records.toLocaleString('en')} rows\n`);
  const tmp = await mkdtemp(path.join(tmpdir(), 'bench-signup-'));
  const running: Running[] = [];
  const engine = await during('starting a throwaway PostgreSQL (fsync on)', startPostgres({ durable: true, settings: { max_connections: '200' } }));
  let redis: RedisEngine | undefined;
  const abandon = () => void Promise.all([engine.stop(), redis?.stop(), ...running.map((r) => r.stop())]).finally(() => process.exit(130));
  process.once('SIGINT', abandon).once('SIGTERM', abandon);
  try {
    const url = await engine.createDatabase('signups');
    await during(`PostgreSQL: ${records.toLocaleString('en')} rows and the statistics' counters`, seedPostgres(url, records));
    if (REDIS_BINARY) redis = await startRedis();
    else phase('Redis is not installed: the product runs with in-memory rate limits');
    const dist = path.join(tmp, 'dist');
    await mkdir(dist);
    await writeFile(path.join(dist, 'index.html'), '<!doctype html><title>bench</title>');
    const base: NodeJS.ProcessEnv = { ...process.env, DATABASE_URL: url, RATE_LIMIT_STANDARD: '1000000000', RATE_LIMIT_RELAXED: '1000000000', DIST_DIR: dist };
    const contenders = await during('starting the product, the sidecar alone, the plain peer and the h3 floor', async () => {
      const start = async (server: Promise<Running>) => {
        const started = await server;
        running.push(started);
        return started;
      };
      /** The product (front, and sidecar on its Unix socket) from the checkout at `root`. */
      const product = async (root: string, name: string) => {
        const dir = path.join(tmp, name.replace(/\W+/g, '-'));
        const productEnv = { ...base, DATA_DIR: dir, LOG_REQUESTS: 'true', LOG_FORMAT: 'json', ...(redis ? { RATE_LIMIT_STORE: redis.url } : {}) };
        const api = await start(sidecar(path.join(root, 'api/sidecar/main.ts'), { ...productEnv, SIDECAR_LISTEN: 'socket' }));
        const front = await start(nodeServer('front', path.join(root, 'api/front/main.ts'), [], { ...productEnv, SIDECAR_LISTEN: 'socket', HOST: '127.0.0.1', PORT: '0' }, `${dir}-front.log`));
        const processes = [{ pid: front.pid }, { pid: api.pid }, ...(redis ? [{ pid: redis.pid }] : []), pg];
        return { name: `${name}: front + sidecar${redis ? ', Redis limits' : ''}`, columns: ['front', 'server', ...(redis ? ['Redis'] : []), 'PostgreSQL'], ...http(front.url, processes) };
      };
      const pg: Counted = { pid: engine.pid, tree: true };
      const http = (origin: string, processes: Counted[]) => ({ processes, measure: (rate?: number) => signupLoad(origin, CONNECTIONS, duration, processes, rate) });
      const alone = await start(sidecar(path.join(ROOT, 'api/sidecar/main.ts'), { ...base, DATA_DIR: path.join(tmp, 'alone'), LOG_REQUESTS: 'false', SIDECAR_LISTEN: 'tcp', SIDECAR_HOST: '127.0.0.1', SIDECAR_PORT: '0' }));
      const plain = await start(nodeServer('plain', path.join(import.meta.dirname, 'plain-signup-server.ts'), [url], process.env));
      const floor = await start(nodeServer('h3 floor', path.join(import.meta.dirname, 'h3-floor-server.ts'), [], process.env));
      const list: Contender[] = [
        ...(before ? [await product(path.resolve(before), 'product (before)')] : []),
        await product(ROOT, 'product'),
        { name: 'sidecar alone, TCP', columns: ['server', 'PostgreSQL'], ...http(alone.url, [{ pid: alone.pid }, pg]) },
        { name: 'plain node:http + pg + zod', columns: ['server', 'PostgreSQL'], ...http(plain.url, [{ pid: plain.pid }, pg]) },
        { name: 'h3 floor (no work)', columns: ['server'], ...http(floor.url, [{ pid: floor.pid }]) },
        { name: 'pgbench, the same statement', columns: ['PostgreSQL'], processes: [pg], measure: (rate) => pgbenchLoad(path.join(bin, 'pgbench'), url, CONNECTIONS, duration, engine.pid, rate) },
      ];
      return list;
    });
    const counted = [...new Map(contenders.flatMap((c) => c.processes).map((p) => [p.pid, p])).values()];
    const idleRates = await during('idle CPU of every process, 5 s', idleMicrosPerSecond(counted, 5));
    const idle = new Map(counted.map((p, i) => [p.pid, idleRates[i]]));
    const runs = new Map<Contender, SignupRun[]>(contenders.map((c) => [c, []]));
    const paced = new Map<Contender, SignupRun[]>(contenders.map((c) => [c, []]));
    for (let round = 1; round <= rounds; round++) {
      for (const contender of contenders) {
        const result = await during(`round ${round}/${rounds}: ${contender.name}, ${duration} s`, contender.measure());
        phase(`round ${round}/${rounds}: ${contender.name}: ${result.perSecond.toFixed(0)}/s, p99 ${result.p99.toFixed(1)} ms${result.failed ? `, ${result.failed} failed` : ''}`);
        runs.get(contender)!.push(result);
        const fixed = await during(`round ${round}/${rounds}: ${contender.name} at ${fixedRate}/s, ${duration} s`, contender.measure(fixedRate));
        // What each process spends idle is not the sign-ups' (idleMicrosPerSecond).
        fixed.cpuMicros = fixed.cpuMicros.map((micros, i) => Math.max(0, micros - idle.get(contender.processes[i].pid)! / Math.max(1, fixed.perSecond)));
        phase(`round ${round}/${rounds}: ${contender.name} at ${fixedRate}/s: CPU µs per sign-up ${fixed.cpuMicros.map((c) => c.toFixed(0)).join(' / ')}`);
        paced.get(contender)!.push(fixed);
      }
    }
    print(contenders, runs, paced);
  } finally {
    await Promise.all(running.map((r) => r.stop()));
    await redis?.stop();
    await engine.stop();
    await rm(tmp, { recursive: true, force: true });
  }
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

function print(contenders: Contender[], runs: Map<Contender, SignupRun[]>, paced: Map<Contender, SignupRun[]>): void {
  const summary = contenders.map((contender) => {
    const all = runs.get(contender)!;
    const cpu = Object.fromEntries(contender.columns.map((column, i) => [column, median(paced.get(contender)!.map((r) => r.cpuMicros[i]))]));
    const rates = all.map((r) => r.perSecond);
    return { contender, rate: median(rates), low: Math.min(...rates), high: Math.max(...rates), p50: median(all.map((r) => r.p50)), p99: median(all.map((r) => r.p99)), cpu, failed: all.reduce((n, r) => n + r.failed, 0) };
  });
  const plain = summary.find((s) => s.contender.name.startsWith('plain'))!;
  const cell = (value: number | undefined) => (value === undefined ? '—' : value.toFixed(0));
  const head = ['contender', 'sign-ups/s (range)', 'p50 ms', 'p99 ms', ...COLUMNS.map((c) => `${c} µs @${fixedRate}/s`), 'server µs vs plain', 'rate vs plain', 'failed'];
  const rows = summary.map((s) => [
    s.contender.name,
    `${s.rate.toFixed(0)} (${s.low.toFixed(0)}–${s.high.toFixed(0)})`,
    s.p50.toFixed(1),
    s.p99.toFixed(1),
    ...COLUMNS.map((column) => cell(s.cpu[column])),
    s.cpu.server === undefined ? '—' : `${(s.cpu.server / plain.cpu.server).toFixed(2)}×`,
    `${(s.rate / plain.rate).toFixed(2)}×`,
    String(s.failed + paced.get(s.contender)!.reduce((n, r) => n + r.failed, 0)),
  ]);
  console.log('');
  table(head, rows);
  const alone = summary.find((s) => s.contender.name.startsWith('sidecar alone'))!;
  const floor = summary.find((s) => s.contender.name.startsWith('h3 floor'))!;
  console.log(
    `\nThe sidecar's CPU per sign-up: ${(alone.cpu.server / plain.cpu.server).toFixed(2)}× the plain peer's (target <= 1.4×); ` +
      `above the h3 floor it spends ${(alone.cpu.server - floor.cpu.server).toFixed(0)} µs against the plain peer's ${plain.cpu.server.toFixed(0)} µs in all.`,
  );
}

await main();
