/**
 * Closed-loop loads: `connections` clients sending requests back to back over kept-alive
 * connections for a while, each request timed in this process (performance.now), so latencies are
 * exact to the microsecond and include the wait for a free connection. Used by the sidecar and
 * PostgreSQL benches for sign-ups (each one a distinct address) and statistics polls.
 */
import { Agent, request } from 'node:http';
import { performance } from 'node:perf_hooks';
import autocannon from 'autocannon';
import { API_PATHS } from '../../api/contract/index.ts';
import { percentiles } from './signup-load.ts';

/** Answered requests and their latency in milliseconds. */
export interface Latencies {
  ok: number;
  /** Answers other than 200, and requests that failed. */
  failed: number;
  p50: number;
  p99: number;
  max: number;
}

/** Each answered request's start and end (performance.now, ms), for a caller that sorts them by what ran meanwhile. */
export type OnSample = (started: number, ended: number) => void;

/** `connections` clients running `send` back to back for `seconds`; `send` resolves with the status (0: no answer). */
export async function load(connections: number, seconds: number, send: (agent: Agent, n: number) => Promise<number>, onSample?: OnSample): Promise<Latencies> {
  const agent = new Agent({ keepAlive: true, maxSockets: connections });
  const latencies: number[] = [];
  let failed = 0;
  let n = 0;
  const end = performance.now() + seconds * 1000;
  const worker = async () => {
    while (performance.now() < end) {
      const started = performance.now();
      const status = await send(agent, n++);
      const ended = performance.now();
      latencies.push(ended - started);
      if (status !== 200) failed += 1;
      else onSample?.(started, ended);
    }
  };
  await Promise.all(Array.from({ length: connections }, worker));
  agent.destroy();
  latencies.sort((a, b) => a - b);
  const at = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? 0;
  return { ok: latencies.length - failed, failed, p50: at(0.5), p99: at(0.99), max: latencies.at(-1) ?? 0 };
}

/** Distinct sign-ups (`<prefix>-<n>@example.com`) posted to the waitlist endpoint of `url`. */
export function signUps(url: string, prefix: string, seconds: number, connections: number, onSample?: OnSample): Promise<Latencies> {
  const target = new URL(API_PATHS.waitlist, url);
  return load(
    connections,
    seconds,
    (agent, n) => call(agent, target, 'POST', { 'content-type': 'application/json' }, JSON.stringify({ email: `${prefix}-${n}@example.com`, consent: true, role: 'data', lang: 'de' })),
    onSample,
  );
}

/** One request; resolves with the status once the body is read, 0 on a network error. */
export function call(agent: Agent, url: URL, method: string, headers: Record<string, string>, body?: string): Promise<number> {
  return new Promise((done) => {
    const all = body === undefined ? headers : { ...headers, 'content-length': String(Buffer.byteLength(body)) };
    const req = request(url, { method, agent, headers: all }, (res) => {
      res.resume();
      res.on('end', () => done(res.statusCode ?? 0));
    });
    req.on('error', () => done(0));
    req.end(body);
  });
}

/**
 * `clients` polling the statistics of `url` with `token` for `seconds`, through autocannon: a
 * statistics answer costs the sidecar about 60 µs of CPU, and with `load` (node:http's client) the
 * same sidecar answered 9,000–10,000 a second against autocannon's 14,400–16,700, so `load` would
 * measure mostly itself. Latencies from autocannon's 'response' event (latency.ts says why).
 */
export async function pollStats(url: string, token: string, seconds: number, clients: number): Promise<Latencies> {
  const samples: number[] = [];
  const run = autocannon({ url: new URL(API_PATHS.stats, url).href, connections: clients, duration: seconds, headers: { authorization: `Bearer ${token}` } });
  run.on('response', (_client: unknown, _status: number, _bytes: number, ms: number) => samples.push(ms));
  const result = await run;
  const { p50, p99 } = percentiles(samples);
  return { ok: result['2xx'], failed: result.errors + result.timeouts + result.non2xx, p50, p99, max: samples.at(-1) ?? 0 };
}
