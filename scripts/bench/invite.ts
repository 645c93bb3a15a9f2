/**
 * `npm run bench -- invite`: `waitlist invite --count N --rate 0` against a local SMTP server
 * (smtp-sink.ts), on the JSON store (through its running sidecar) and on PostgreSQL (fsync on):
 * messages per second, the invite process's peak RSS, and the p99 of a concurrent sign-up load
 * against the same load without the run, measured right before and right after it (target: at most
 * 10 % apart). Before and after, because every sign-up and every invitation makes the JSON store's
 * file larger, and each of its commits writes the whole file: a load measured only before the run
 * would be compared at a smaller file than the run's;
 * then the same sign-up load beside a run paced at --rate 50 (a fast provider's limit), the way
 * invitations are sent in production. The SMTP server stands in for one on another machine, so it
 * runs at nice 19: its CPU is not the run's cost to the sign-ups.
 * Paired windows: during each run a second sign-up load runs while the run and a spinner (a
 * process that only computes, at the run's priority, nice 19) are continued (SIGCONT) and stopped
 * (SIGSTOP) in turn, every WINDOW_MS: run, neither, spinner, neither (CYCLE). The p99 of the
 * sign-ups inside the run's windows is compared with those inside the windows of neither: the same
 * file, the same list and the same moment of the machine, so this ratio is not moved by the file's
 * growth or the machine's drift between loads, which move the before/during/after comparison by
 * ±0.3 here. The spinner's windows say what any neighbour that keeps a core busy costs the sign-ups
 * on this machine, and the two kinds of neither windows against each other what chance alone does.
 *   --invites=N      members to invite at --rate 0 (default 10000)
 *   --duration=S     seconds of each sign-up load (default 8)
 *   --window-ms=MS   how long each paired window lasts (default 1000)
 *   --store=NAME     json or postgres (default: both)
 */
import { fork, spawn, type ChildProcess } from 'node:child_process';
import { readFile, mkdtemp, rm } from 'node:fs/promises';
import { setPriority, tmpdir } from 'node:os';
import { join } from 'node:path';
import { postgresBinDir, startPostgres } from '../../test/support/engines/postgres.ts';
import { nextMessage } from './child-stats.ts';
import { writeStoreFile } from './json-seed.ts';
import { seedPostgres } from './postgres-seed.ts';
import { benchOptions, during, numberOption, phase } from './progress.ts';
import { signUps, type Latencies } from './request-load.ts';
import { percentiles } from './signup-load.ts';
import { cpuSeconds, sidecar } from './servers.ts';
import { table } from './table.ts';

const INVITES = numberOption('invites', 10_000);
const DURATION = numberOption('duration', 8);
const CONNECTIONS = 8;
/** The sign-up load starts this long after the run, once it is past its start-up and sending. */
const LOAD_DELAY_MS = 1500;
/** The paced run: messages per second, and enough members to outlast the load. */
const PACED_RATE = 50;
const PACED = PACED_RATE * (Math.ceil(DURATION * 2) + 6);
const ROOT = new URL('../../', import.meta.url).pathname;
/** How long each window of the paired load lasts. */
const WINDOW_MS = numberOption('window-ms', 1000);
/** The paired load is four times as long as the others: the run and the spinner each go in a quarter of it. */
const PAIRED_SECONDS = 4 * DURATION;
/** Which stores to measure: json, postgres, or both (the default). */
const STORES = benchOptions().store ?? 'json,postgres';

interface Result {
  store: string;
  rate: number;
  messagesPerSecond: number;
  peakRssMb: number;
  before: Latencies;
  after: Latencies;
  during: Latencies;
  paired: Paired;
  sent: number;
}

/** Sign-up p99 (ms) in the paired load's windows by what went in them (CYCLE), and how long the run was stopped in all. */
interface Paired {
  run: number;
  spinner: number;
  neither: number;
  /** The neither windows after a run window, and those after a spinner window: what chance alone moves a p99 by. */
  neitherHalves: [number, number];
  /** CPU of the service (the sidecar; on PostgreSQL also the database's processes) per sign-up answered, in µs, by window. */
  serviceCpu: { run: number; spinner: number; neither: number };
  stoppedMs: number;
}

/** Peak RSS (VmHWM) of a live process in MB, polled until it exits. */
function watchPeakRss(pid: number): () => number {
  let peak = 0;
  const timer = setInterval(async () => {
    const status = await readFile(`/proc/${pid}/status`, 'utf8').catch(() => '');
    const kb = Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? 0);
    peak = Math.max(peak, kb / 1024);
  }, 100);
  return () => {
    clearInterval(timer);
    return peak;
  };
}

/** A fresh sidecar's first seconds (its JIT, its pool's connections) would count against the run: warm it first. */
async function warmUp(store: string, sidecarUrl: string): Promise<void> {
  await during(`${store}: 2 s warm-up`, signUps(sidecarUrl, `${store}-warm`, 2, CONNECTIONS));
}

async function measure(store: string, sidecarUrl: string, service: number[], env: NodeJS.ProcessEnv, sink: ChildProcess, count: number, rate: number): Promise<Result> {
  const before = await during(`${store}: sign-ups alone, ${DURATION} s`, signUps(sidecarUrl, `${store}-before-${rate}`, DURATION, CONNECTIONS));
  phase(`${store}: invite --count ${count} --rate ${rate}, with the same sign-up load ${LOAD_DELAY_MS} ms in`);
  const started = performance.now();
  // The seeded members are all at example.com, which takes no mail (a null MX): the check is left out.
  const run = spawn(process.execPath, ['scripts/waitlist.ts', 'invite', '--count', String(count), '--rate', String(rate), '--yes', '--no-check'], {
    cwd: ROOT,
    env,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  run.stderr!.on('data', (chunk) => (stderr += chunk));
  const peak = watchPeakRss(run.pid!);
  const exited = new Promise<number | null>((done) => run.on('exit', done));
  await new Promise((done) => setTimeout(done, LOAD_DELAY_MS));
  const loaded = signUps(sidecarUrl, `${store}-during-${rate}`, DURATION, CONNECTIONS);
  const duringRun = await loaded;
  const paired = await during(
    `${store}: paired windows of ${WINDOW_MS} ms, the run, neither, a nice-19 spinner, neither, in turn, ${PAIRED_SECONDS} s`,
    pairedWindows(store, sidecarUrl, service, rate, run),
  );
  phase(`${store}: sign-up p99 ${paired.run.toFixed(1)} ms with the run going, ${paired.spinner.toFixed(1)} with the spinner, ${paired.neither.toFixed(1)} with neither`);
  const { serviceCpu } = paired;
  phase(`${store}: the service's CPU per sign-up ${serviceCpu.run.toFixed(0)} µs with the run going, ${serviceCpu.spinner.toFixed(0)} with the spinner, ${serviceCpu.neither.toFixed(0)} with neither`);
  const code = await during(`${store}: waiting for the run to finish`, exited);
  const seconds = (performance.now() - started - paired.stoppedMs) / 1000;
  if (code !== 0) throw new Error(`invite exited with ${code}: ${stderr}`);
  const after = await during(`${store}: sign-ups alone again, ${DURATION} s`, signUps(sidecarUrl, `${store}-after-${rate}`, DURATION, CONNECTIONS));
  sink.send('count');
  const { received } = await nextMessage<{ received: number }>(sink, 'count');
  // Going, the run has to outlast the load during it and its own windows of the paired load.
  if (seconds < LOAD_DELAY_MS / 1000 + DURATION + PAIRED_SECONDS / CYCLE.length) phase(`${store}: the run ended before the sign-up loads did; raise --invites for a longer overlap`);
  return { store, rate, messagesPerSecond: count / seconds, peakRssMb: peak(), before, after, during: duringRun, paired, sent: received };
}

/**
 * What goes in each window of the paired load, in turn: the run, neither, the spinner, neither.
 * The spinner is a process that only computes, at the run's priority (nice 19): the least any
 * neighbour that keeps a core busy costs the sign-ups on this machine, however little it asks of the
 * service (a run at --rate 0 keeps a core busy). The neither windows are the reference for both.
 */
const CYCLE = ['run', 'neither', 'spinner', 'neither'] as const;

/**
 * The sign-up load while the run and the spinner are continued (SIGCONT) and stopped (SIGSTOP) in
 * turn, every WINDOW_MS; a sign-up counts for the window it started and ended in (one that spans a
 * switch counts for neither). The run is left going. A run that ends meanwhile leaves its later
 * run windows without it (measure warns).
 */
async function pairedWindows(store: string, sidecarUrl: string, service: number[], rate: number, run: ChildProcess): Promise<Paired> {
  const spinner = spawn(process.execPath, ['-e', 'for (;;);'], { stdio: 'ignore' });
  spinner.kill('SIGSTOP');
  setPriority(spinner.pid!, 19);
  const alive = (child: ChildProcess) => child.exitCode === null && child.signalCode === null;
  const switches: number[] = [performance.now()];
  let stoppedMs = 0;
  let stoppedAt: number | undefined;
  // The service's CPU at each switch, read one after another, charged to the window that ended.
  const cpu: Record<(typeof CYCLE)[number], number> = { run: 0, spinner: 0, neither: 0 };
  const serviceSeconds = async () => (await Promise.all(service.map(cpuSeconds))).reduce((a, b) => a + b, 0);
  let lastCpu = serviceSeconds();
  const chargeTo = (window: (typeof CYCLE)[number]) => {
    const previous = lastCpu;
    lastCpu = previous.then(async (before) => {
      const after = await serviceSeconds();
      cpu[window] += after - before;
      return after;
    });
  };
  const timer = setInterval(() => {
    const now = performance.now();
    const was = CYCLE[(switches.length - 1) % CYCLE.length];
    chargeTo(was);
    const next = CYCLE[switches.length % CYCLE.length];
    if (was === 'run') {
      if (alive(run)) run.kill('SIGSTOP');
      stoppedAt = now;
    }
    if (next === 'run') {
      if (alive(run)) run.kill('SIGCONT');
      stoppedMs += now - stoppedAt!;
      stoppedAt = undefined;
    }
    if (was === 'spinner') spinner.kill('SIGSTOP');
    if (next === 'spinner') spinner.kill('SIGCONT');
    switches.push(now);
  }, WINDOW_MS);
  const windows: number[][] = CYCLE.map(() => []);
  try {
    await signUps(sidecarUrl, `${store}-paired-${rate}`, PAIRED_SECONDS, CONNECTIONS, (startedAt, endedAt) => {
      const window = switches.findLastIndex((at) => at <= startedAt);
      const next = switches[window + 1];
      if (window < 0 || (next !== undefined && next <= endedAt) || endedAt > performance.now()) return;
      windows[window % CYCLE.length].push(endedAt - startedAt);
    });
  } finally {
    clearInterval(timer);
    chargeTo(CYCLE[(switches.length - 1) % CYCLE.length]);
    await lastCpu;
    spinner.kill('SIGKILL');
    if (stoppedAt !== undefined) stoppedMs += performance.now() - stoppedAt;
    if (alive(run)) run.kill('SIGCONT');
  }
  const p99 = (...indices: number[]) => percentiles(indices.flatMap((i) => windows[i])).p99;
  const perSignUp = (seconds: number, ...indices: number[]) => (seconds * 1e6) / Math.max(1, indices.reduce((n, i) => n + windows[i].length, 0));
  return {
    serviceCpu: { run: perSignUp(cpu.run, 0), spinner: perSignUp(cpu.spinner, 2), neither: perSignUp(cpu.neither, 1, 3) },
    run: p99(0),
    spinner: p99(2),
    neither: p99(1, 3),
    neitherHalves: [p99(1), p99(3)],
    stoppedMs,
  };
}

async function main(): Promise<void> {
  console.log(`Invitations benchmark: ${INVITES.toLocaleString('en')} invitations at --rate 0 to a local SMTP server; ${CONNECTIONS} sign-up clients for ${DURATION} s before, during and after the run\n`);
  const sink = fork(join(ROOT, 'scripts/bench/smtp-sink.ts'), [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const { port } = await nextMessage<{ port: number }>(sink, 'ready');
  setPriority(sink.pid!, 19);
  const base = { PATH: process.env.PATH, BASE_URL: 'https://waitlist.example', INVITE_URL: 'https://app.example/start', SMTP_URL: `smtp://127.0.0.1:${port}?starttls=off`, LOG_REQUESTS: 'false' };
  const sidecarEnv = { ...base, SIDECAR_LISTEN: 'tcp', SIDECAR_HOST: '127.0.0.1', SIDECAR_PORT: '0', RATE_LIMIT_STANDARD: '100000000' };
  const results: Result[] = [];
  const dir = await mkdtemp(join(tmpdir(), 'bench-invite-'));
  const engine = postgresBinDir() ? await during('starting a throwaway PostgreSQL (fsync on)', startPostgres({ durable: true })) : undefined;
  const abandon = () => void (engine?.stop() ?? Promise.resolve()).finally(() => process.exit(130));
  process.once('SIGINT', abandon).once('SIGTERM', abandon);
  try {
    if (STORES.includes('json')) {
      await during(`JSON: ${(INVITES + PACED).toLocaleString('en')} records`, writeStoreFile(dir, INVITES + PACED));
      const json = await sidecar(join(ROOT, 'api/sidecar/main.ts'), { ...sidecarEnv, DATA_DIR: dir });
      try {
        await warmUp('JSON', json.url);
        results.push(await measure('JSON', json.url, [json.pid], { ...base, DATA_DIR: dir }, sink, INVITES, 0));
        results.push(await measure('JSON', json.url, [json.pid], { ...base, DATA_DIR: dir }, sink, PACED, PACED_RATE));
      } finally {
        await json.stop();
      }
    }
    if (engine && STORES.includes('postgres')) {
      const url = await engine.createDatabase('bench_invite');
      await during(`PostgreSQL: ${(INVITES + PACED).toLocaleString('en')} rows`, seedPostgres(url, INVITES + PACED));
      const pgSidecar = await sidecar(join(ROOT, 'api/sidecar/main.ts'), { ...sidecarEnv, DATABASE_URL: url, DATA_DIR: dir });
      try {
        await warmUp('PostgreSQL', pgSidecar.url);
        results.push(await measure('PostgreSQL', pgSidecar.url, [pgSidecar.pid, engine.pid], { ...base, DATABASE_URL: url }, sink, INVITES, 0));
        results.push(await measure('PostgreSQL', pgSidecar.url, [pgSidecar.pid, engine.pid], { ...base, DATABASE_URL: url }, sink, PACED, PACED_RATE));
      } finally {
        await pgSidecar.stop();
      }
    } else if (!engine) {
      phase('PostgreSQL is not installed: only the JSON store was measured');
    }
  } finally {
    await engine?.stop();
    sink.disconnect();
    await rm(dir, { recursive: true, force: true });
  }
  const ms = (v: number) => v.toFixed(1);
  table(
    [
      'store',
      '--rate',
      'messages/s',
      'peak RSS (MB)',
      'sign-up p99 alone, before / after (ms)',
      'p99 during the run (ms)',
      'ratio to their mean',
      'paired p99: run / spinner / neither (ms)',
      'run / neither (target ≤ 1.10)',
      'spinner / neither',
      'run / spinner',
      'neither / neither (noise)',
      'service CPU per sign-up: run / neither (µs)',
      'sign-ups before / during / after',
      'received',
    ],
    results.map((r) => [
      r.store,
      String(r.rate),
      r.messagesPerSecond.toFixed(0),
      r.peakRssMb.toFixed(0),
      `${ms(r.before.p99)} / ${ms(r.after.p99)}`,
      ms(r.during.p99),
      (r.during.p99 / ((r.before.p99 + r.after.p99) / 2)).toFixed(2),
      `${ms(r.paired.run)} / ${ms(r.paired.spinner)} / ${ms(r.paired.neither)}`,
      (r.paired.run / r.paired.neither).toFixed(2),
      (r.paired.spinner / r.paired.neither).toFixed(2),
      (r.paired.run / r.paired.spinner).toFixed(2),
      (r.paired.neitherHalves[0] / r.paired.neitherHalves[1]).toFixed(2),
      `${r.paired.serviceCpu.run.toFixed(0)} / ${r.paired.serviceCpu.neither.toFixed(0)}`,
      `${r.before.ok} / ${r.during.ok} / ${r.after.ok}`,
      String(r.sent),
    ]),
  );
  console.log(
    '\nreceived: messages at the SMTP server so far (cumulative). A paced run ends when its members are invited; ' +
      'its messages/s is the pace, not a limit (the time the run spent stopped in the paired windows is left out). ' +
      'Paired: one load, its windows taken in turn by the run, neither, a spinner, neither (the run and the spinner stopped when not theirs); ' +
      'the spinner only computes, at the run\'s priority (nice 19): what any neighbour that keeps a core busy costs the sign-ups here, however little it asks of the service. ' +
      'run / spinner: what the run costs beyond keeping a core busy; neither / neither: the windows after the run\'s against those after the spinner\'s, what chance alone moves a p99 by.',
  );
}

if (process.argv.includes('--help')) {
  console.log('usage: node scripts/bench/invite.ts [--invites=N] [--duration=S] [--window-ms=MS] [--store=json|postgres]\nInvitations at --rate 0 on both stores: messages/s, peak RSS, sign-up p99 against the same load without the run.');
} else {
  await main();
}
