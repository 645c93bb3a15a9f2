/**
 * The sign-up load of scripts/bench/signup-peers.ts: autocannon posting JSON sign-ups, each with a
 * distinct address, latencies to the microsecond from its
 * 'response' event (scripts/bench/latency.ts says why), and the CPU each server process spent per
 * answered sign-up, from /proc/<pid>/stat before and after.
 */
import { readdir, readFile } from 'node:fs/promises';
import autocannon from 'autocannon';
import { API_PATHS } from '../../api/contract/index.ts';

/** A process whose CPU is counted: `tree` adds its descendants, live and ended (PostgreSQL's backends). */
export interface Counted {
  pid: number;
  tree?: boolean;
}

export interface SignupRun {
  perSecond: number;
  /** Milliseconds. */
  p50: number;
  p99: number;
  /** µs of CPU per answered sign-up, one per counted process, in order. */
  cpuMicros: number[];
  /** Errors, timeouts and answers other than 2xx. */
  failed: number;
}

/** utime, stime, cutime, cstime of /proc/<pid>/stat (fields 14-17), in seconds (USER_HZ 100). */
async function times(pid: number): Promise<number[]> {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => '');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return [11, 12, 13, 14].map((i) => Number(fields[i] ?? 0) / 100);
}

/** CPU seconds (user + system) of one process alone, its children left out. */
export async function ownCpuSeconds(pid: number): Promise<number> {
  const [user, system] = await times(pid);
  return user + system;
}

/**
 * CPU seconds of a process and all its descendants: the live ones, and the ended ones its kernel
 * entry has collected (cutime, cstime), so a backend that ends between two readings is not lost.
 */
export async function treeCpuSeconds(pid: number): Promise<number> {
  const [user, system, children, childrenSystem] = await times(pid);
  let total = user + system + children + childrenSystem;
  for (const task of await readdir(`/proc/${pid}/task`).catch(() => [])) {
    const live = (await readFile(`/proc/${pid}/task/${task}/children`, 'utf8').catch(() => '')).trim();
    for (const child of live ? live.split(' ') : []) total += await treeCpuSeconds(Number(child));
  }
  return total;
}

const cpuOf = (counted: Counted) => (counted.tree ? treeCpuSeconds(counted.pid) : ownCpuSeconds(counted.pid));

/**
 * µs of CPU per second each process spends with no request at all (timers, probes, a database's
 * background workers), over `seconds`: at a fixed, low rate this work would otherwise be charged
 * to the few sign-ups of each second.
 */
export async function idleMicrosPerSecond(processes: Counted[], seconds: number): Promise<number[]> {
  const before = await Promise.all(processes.map(cpuOf));
  await new Promise((done) => setTimeout(done, seconds * 1000));
  const after = await Promise.all(processes.map(cpuOf));
  return processes.map((_, i) => ((after[i] - before[i]) * 1e6) / seconds);
}

/** The body of sign-up `n` of this process. */
export const signupBody = (n: number) => JSON.stringify({ email: `peer-${process.pid}-${n}@example.com`, consent: true, role: 'data', lang: 'de' });
let sent = 0;

/**
 * `connections` clients posting sign-ups to `origin` for `seconds`: back to back, or at `rate`
 * sign-ups per second in all (then every server gets the same work per second, so their CPU per
 * sign-up compares like with like: a server that answers fewer per second pays more fixed costs each).
 */
export async function signupLoad(origin: string, connections: number, seconds: number, processes: Counted[], rate?: number): Promise<SignupRun> {
  // setupRequest builds each request afresh, its Content-Length included.
  const signup = { method: 'POST', path: API_PATHS.waitlist, headers: { 'content-type': 'application/json' }, setupRequest: (request: object) => ({ ...request, body: signupBody(sent++) }) };
  const options = { url: origin, requests: [signup], connections, ...(rate ? { overallRate: rate } : {}) };
  await autocannon({ ...options, duration: 1 });
  const before = await Promise.all(processes.map(cpuOf));
  const samples: number[] = [];
  const run = autocannon({ ...options, duration: seconds });
  run.on('response', (_client: unknown, _status: number, _bytes: number, ms: number) => samples.push(ms));
  const result = await run;
  const after = await Promise.all(processes.map(cpuOf));
  const answered = Math.max(1, result.requests.total);
  return {
    perSecond: result['2xx'] / seconds,
    ...percentiles(samples),
    cpuMicros: processes.map((_, i) => ((after[i] - before[i]) * 1e6) / answered),
    failed: result.errors + result.timeouts + result.non2xx,
  };
}

/** p50 and p99 of latencies in milliseconds. */
export function percentiles(samples: number[]): { p50: number; p99: number } {
  samples.sort((a, b) => a - b);
  const at = (q: number) => samples[Math.min(samples.length - 1, Math.floor(q * samples.length))] ?? NaN;
  return { p50: at(0.5), p99: at(0.99) };
}
