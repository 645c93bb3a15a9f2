/**
 * The sidecar's metrics: what only it sees, the store's commits and whether each engine it uses
 * can work (waitlist_engine_up, read from the engines' health when scraped). Its process metrics carry the
 * `sidecar_` prefix so that they sit beside the front's in one scrape without clashing.
 */
import { Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { EngineState } from '../metrics/readiness.ts';
import type { CommitInfo } from './store/waitlist-store.ts';

export function createSidecarMetrics() {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: 'sidecar_' });
  const commitTime = new Histogram({
    name: 'waitlist_store_commit_seconds',
    help: 'Time of one durable store commit (a commit serves every sign-up batched into it).',
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    registers: [registry],
  });
  const commitSize = new Gauge({ name: 'waitlist_store_commit_bytes', help: 'Bytes written by the latest store commit.', registers: [registry] });
  const records = new Gauge({ name: 'waitlist_store_records', help: 'Records in the waitlist after the latest commit.', registers: [registry] });
  let engines: () => EngineState[] = () => [];
  new Gauge({
    name: 'waitlist_engine_up',
    help: 'Whether an engine in use can do its work (1) or not (0): postgres, redis (rate limits), json (the data file\'s disk).',
    labelNames: ['engine'],
    registers: [registry],
    collect() {
      for (const { engine, state } of engines()) this.set({ engine }, state === 'up' ? 1 : 0);
    },
  });
  return {
    registry,
    /** Where waitlist_engine_up reads the engines in use (set once they are open). */
    watchEngines(read: () => EngineState[]) {
      engines = read;
    },
    /** The store's commit hook (BackendOptions.onCommit): time, bytes written, records after it. */
    onCommit({ durationMs, bytes, records: count }: CommitInfo) {
      commitTime.observe(durationMs / 1000);
      if (bytes !== undefined) commitSize.set(bytes);
      if (count !== undefined) records.set(count);
    },
  };
}
