/**
 * The front's metrics: it sees every request, so request counts, latencies, accepted sign-ups and
 * rate-limit refusals are counted here, per operation (api/metrics/operation.ts), environment and
 * status. The sidecar's own numbers (store commits) come over IPC when scraped (ipc.ts).
 */
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { Finished } from './log.ts';
import { operationOf, SIGNUP_OPERATIONS } from '../metrics/operation.ts';

/** Seconds: from a page answered from memory up to a sign-up waiting for its commit to disk. */
const LATENCY_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

export function createFrontMetrics(sidecarUp: () => boolean) {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const requests = new Counter({
    name: 'waitlist_http_requests_total',
    help: 'Requests answered by the front, by operation (contract route id, or site), environment and status.',
    labelNames: ['operation', 'environment', 'status'] as const,
    registers: [registry],
  });
  const latency = new Histogram({
    name: 'waitlist_http_request_duration_seconds',
    help: 'Time from the request reaching the front to the end of its answer.',
    labelNames: ['operation', 'environment'] as const,
    buckets: LATENCY_BUCKETS,
    registers: [registry],
  });
  const signups = new Counter({
    name: 'waitlist_signups_accepted_total',
    help: 'Sign-ups answered as accepted (200 or 303), by environment; the sandbox stores nothing.',
    labelNames: ['environment'] as const,
    registers: [registry],
  });
  const refusals = new Counter({
    name: 'waitlist_rate_limit_refusals_total',
    help: 'Requests refused with 429 by the rate limits, by operation and environment.',
    labelNames: ['operation', 'environment'] as const,
    registers: [registry],
  });
  const restarts = new Counter({ name: 'waitlist_sidecar_restarts_total', help: 'Times the supervisor replaced a sidecar that died.', registers: [registry] });
  const held = new Counter({
    name: 'waitlist_sidecar_held_requests_total',
    help: 'API requests that found no sidecar (restarting, connection refused) and were held for the next one (SIDECAR_HOLD_MS).',
    registers: [registry],
  });
  const dropped = new Counter({
    name: 'waitlist_sidecar_dropped_requests_total',
    help: 'API requests that found no sidecar and were answered 500 because none came within SIDECAR_HOLD_MS.',
    registers: [registry],
  });
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
