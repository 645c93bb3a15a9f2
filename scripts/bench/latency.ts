/**
 * One autocannon load with latency kept to the microsecond. autocannon's own histogram stores
 * whole milliseconds, so on loopback most answers count as 0 ms and its mean is meaningless; its
 * 'response' event carries the exact duration, and the percentiles here come from that.
 */
import autocannon from 'autocannon';
import { cpuSeconds } from './servers.ts';

export interface Measured {
  requestsPerSecond: number;
  /** Milliseconds. */
  p50: number;
  p99: number;
  mean: number;
  /** CPU time of each given process per answered request, in µs (same order as the pids). */
  cpuMicros: number[];
  /** Errors, timeouts and non-2xx answers. */
  failed: number;
}

/** Loads `url` for `seconds` after a one-second warm-up (JIT, kept-alive sockets). */
export async function measure(url: string, connections: number, seconds: number, pids: number[]): Promise<Measured> {
  await autocannon({ url, connections, duration: 1 });
  const before = await Promise.all(pids.map(cpuSeconds));
  const samples: number[] = [];
  const run = autocannon({ url, connections, duration: seconds });
  run.on('response', (_client: unknown, _status: number, _bytes: number, ms: number) => samples.push(ms));
  const result = await run;
  const after = await Promise.all(pids.map(cpuSeconds));
  const answered = Math.max(1, result.requests.total);
  samples.sort((a, b) => a - b);
  const at = (q: number) => samples[Math.min(samples.length - 1, Math.floor(q * samples.length))] ?? NaN;
  return {
    requestsPerSecond: result.requests.total / seconds,
    p50: at(0.5),
    p99: at(0.99),
    mean: samples.reduce((sum, ms) => sum + ms, 0) / Math.max(1, samples.length),
    cpuMicros: pids.map((_, i) => ((after[i] - before[i]) * 1e6) / answered),
    failed: result.errors + result.timeouts + result.non2xx,
  };
}

/** The per-metric median of several runs of the same load (a busy machine makes single runs jumpy). */
export function median(runs: Measured[]): Measured {
  const mid = <T>(values: T[], key: (v: T) => number) => values.map(key).sort((a, b) => a - b)[Math.floor(values.length / 2)];
  return {
    requestsPerSecond: mid(runs, (r) => r.requestsPerSecond),
    p50: mid(runs, (r) => r.p50),
    p99: mid(runs, (r) => r.p99),
    mean: mid(runs, (r) => r.mean),
    cpuMicros: runs[0].cpuMicros.map((_, i) => mid(runs, (r) => r.cpuMicros[i])),
    failed: runs.reduce((sum, r) => sum + r.failed, 0),
  };
}
