/**
 * One closed-loop load: CONNECTIONS clients sending requests back to back over kept-alive
 * connections (autocannon), to a URL or to the sidecar's Unix socket. Latencies come from
 * autocannon's 'response' event, exact to the microsecond: its own histogram keeps whole
 * milliseconds, and most loopback answers take less than one.
 */
import autocannon, { type Options } from 'autocannon';
import { API_PATHS } from '../../api/contract/index.ts';
import { cpuSeconds } from './processes.ts';

/** Clients sending back to back in every load: the envelope's 32. */
export const CONNECTIONS = 32;

/** A URL, or the sidecar's Unix socket instead of the URL's host and port. */
export type Target = Pick<Options, 'url' | 'socketPath'>;

export interface Request {
  method?: 'GET' | 'POST';
  path: string;
  headers?: Record<string, string>;
  /** A body per request (its number counts from 0 in each load). */
  body?: (n: number) => string;
}

/** Loads the target with CONNECTIONS clients for `seconds` after a one-second warm-up (the JIT, kept-alive connections). */
export async function measure(target: Target, request: Request, seconds: number, pid?: number) {
  let n = 0;
  const body = request.body;
  // setupRequest builds each request afresh, its Content-Length included.
  const setupRequest = body ? { setupRequest: (req: object) => ({ ...req, body: body(n++) }) } : {};
  const options = {
    url: target.url,
    socketPath: target.socketPath,
    connections: CONNECTIONS,
    requests: [{ method: request.method ?? 'GET', path: request.path, headers: request.headers, ...setupRequest }],
  };
  await autocannon({ ...options, duration: 1 });
  const before = pid === undefined ? 0 : await cpuSeconds(pid);
  const samples: number[] = [];
  const run = autocannon({ ...options, duration: seconds });
  run.on('response', (_client: unknown, _status: number, _bytes: number, ms: number) => samples.push(ms));
  const result = await run;
  const cpu = pid === undefined ? 0 : (await cpuSeconds(pid)) - before;
  samples.sort((a, b) => a - b);
  const at = (q: number) => samples[Math.min(samples.length - 1, Math.floor(q * samples.length))] ?? NaN;
  return {
    requestsPerSecond: result.requests.total / seconds,
    /** Milliseconds. */
    p50: at(0.5),
    p99: at(0.99),
    /** CPU of the process given (and its children) per answered request, in µs. */
    cpuMicros: (cpu * 1e6) / Math.max(1, result.requests.total),
    /** Errors, timeouts and answers other than 2xx. */
    failed: result.errors + result.timeouts + result.non2xx,
  };
}

export type Measured = Awaited<ReturnType<typeof measure>>;

/**
 * `rounds` runs of each of `loads` loads, the order alternating so that no load always runs right
 * after the same neighbour; the median of each.
 */
export async function interleaved(loads: number, rounds: number, run: (i: number, round: number) => Promise<Measured>): Promise<Measured[]> {
  const runs = Array.from({ length: loads }, (): Measured[] => []);
  for (let round = 0; round < rounds; round++) {
    for (const i of round % 2 ? [...runs.keys()].reverse() : runs.keys()) runs[i].push(await run(i, round));
  }
  return runs.map(median);
}

/** The per-metric median of several runs of one load: one busy moment of the machine does not decide a row. */
function median(runs: Measured[]): Measured {
  const mid = (key: (m: Measured) => number) => runs.map(key).sort((a, b) => a - b)[Math.floor(runs.length / 2)];
  return {
    requestsPerSecond: mid((m) => m.requestsPerSecond),
    p50: mid((m) => m.p50),
    p99: mid((m) => m.p99),
    cpuMicros: mid((m) => m.cpuMicros),
    failed: runs.reduce((sum, m) => sum + m.failed, 0),
  };
}

/** Distinct JSON sign-ups, `<prefix>-<n>@example.com`, as the form's script posts them. */
export function signUps(prefix: string): Request {
  return {
    method: 'POST',
    path: API_PATHS.waitlist,
    headers: { 'content-type': 'application/json' },
    body: (n) => JSON.stringify({ email: `${prefix}-${n}@example.com`, consent: true, role: 'data', lang: 'de' }),
  };
}
