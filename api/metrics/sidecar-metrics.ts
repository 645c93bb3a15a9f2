/**
 * The sidecar's metrics: what only it sees, the store's commits. Its process metrics carry the
 * `sidecar_` prefix so that they sit beside the front's in one scrape without clashing.
 */
import { Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { CommitInfo } from '../sidecar/store/waitlist-store.ts';

export interface SidecarMetrics {
  registry: Registry;
  /** The store's commit hook (BackendOptions.onCommit): time, bytes written, records after it. */
  onCommit(info: CommitInfo): void;
}

export function createSidecarMetrics(): SidecarMetrics {
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
  return {
    registry,
    onCommit({ durationMs, bytes, records: count }) {
      commitTime.observe(durationMs / 1000);
      if (bytes !== undefined) commitSize.set(bytes);
      if (count !== undefined) records.set(count);
    },
  };
}
