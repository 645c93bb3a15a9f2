/**
 * The front's metrics: it sees every request, so request counts, latencies, accepted sign-ups and
 * rate-limit refusals are counted here, per operation, environment and status. The sidecar's own
 * numbers (store commits) come over IPC when scraped (api/metrics/ipc.ts).
 */
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { MCP_ROUTE, ROUTES, splitEnvironment } from '../contract/index.ts';
import type { Finished } from './log.ts';

const byPath = new Map<string, string>([...ROUTES, MCP_ROUTE].map((route) => [route.path, route.id]));

/**
 * The operation a request belongs to, a bounded set of labels however many paths clients invent:
 * the contract's route id for the API (`unknown` for a path it does not have), `site` for the rest.
 */
function operationOf(target: string, isApi: boolean): { operation: string; environment: 'production' | 'sandbox' | 'none' } {
  if (!isApi) return { operation: 'site', environment: 'none' };
  const { env, path } = splitEnvironment(target.split('?', 1)[0]);
  return { operation: byPath.get(path) ?? 'unknown', environment: env };
}

/** Route ids whose success means a sign-up was accepted (stored, updated or silently discarded). */
const SIGNUP_OPERATIONS = new Set<string>(ROUTES.filter((route) => route.tag === 'Waitlist').map((route) => route.id));

/** Seconds: from a page answered from memory up to a sign-up waiting for its commit to disk. */
const LATENCY_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

export function createFrontMetrics(sidecarUp: () => boolean) {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const counter = <L extends string>(name: string, help: string, labelNames: readonly L[] = []) => new Counter({ name, help, labelNames, registers: [registry] });
  const requests = counter('waitlist_http_requests_total', 'Requests answered by the front, by operation (contract route id, or site), environment and status.', ['operation', 'environment', 'status']);
  const latency = new Histogram({
    name: 'waitlist_http_request_duration_seconds',
    help: 'Time from the request reaching the front to the end of its answer.',
    labelNames: ['operation', 'environment'] as const,
    buckets: LATENCY_BUCKETS,
    registers: [registry],
  });
  const signups = counter('waitlist_signups_accepted_total', 'Sign-ups answered as accepted (200 or 303), by environment; the sandbox stores nothing.', ['environment']);
  const refusals = counter('waitlist_rate_limit_refusals_total', 'Requests refused with 429 by the rate limits, by operation and environment.', ['operation', 'environment']);
  const restarts = counter('waitlist_sidecar_restarts_total', 'Times the supervisor replaced a sidecar that died.');
  const held = counter(
    'waitlist_sidecar_held_requests_total',
    'API requests that found no sidecar (restarting, connection refused) and were held for the next one (SIDECAR_HOLD_MS).',
  );
  const dropped = counter('waitlist_sidecar_dropped_requests_total', 'API requests that found no sidecar and were answered 500 because none came within SIDECAR_HOLD_MS.');
  new Gauge({
    name: 'waitlist_sidecar_up',
    help: '1 while the sidecar is ready to answer, 0 while it is down or restarting.',
    registers: [registry],
    collect() {
      this.set(sidecarUp() ? 1 : 0);
    },
  });

  return {
    registry,
    /** The request tracker's onFinish (api/front/log.ts). */
    observe({ target, isApi, status, ms }: Finished): void {
      const { operation, environment } = operationOf(target, isApi);
      requests.inc({ operation, environment, status: String(status) });
      latency.observe({ operation, environment }, ms / 1000);
      if (status === 429) refusals.inc({ operation, environment });
      else if ((status === 200 || status === 303) && SIGNUP_OPERATIONS.has(operation)) signups.inc({ environment });
    },
    sidecarRestarted: () => restarts.inc(),
    /** The proxy's hold (proxy.ts): requests that waited for a sidecar, and those given up. */
    held: () => held.inc(),
    dropped: () => dropped.inc(),
  };
}

export type FrontMetrics = ReturnType<typeof createFrontMetrics>;
