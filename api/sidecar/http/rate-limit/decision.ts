/** What every engine answers for one request, the seam both implement, and its header fields (contract part 8). */
import type { RateLimitPolicy } from '../../../contract/index.ts';
import type { EngineHealth } from '../../health/engine-health.ts';

export interface RateLimitDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Seconds until the window resets (delta-seconds, draft-ietf-httpapi-ratelimit-headers-06). */
  resetSeconds: number;
  windowSeconds: number;
}

/** A window starts with a key's first request; each policy counts separately. `hit` never rejects (redis.ts falls back to memory). */
export interface RateLimitStore {
  /** Counts one request of `key` (the client's address bucket) under `policy` at `now` (ms). */
  hit(policy: RateLimitPolicy, key: string, limit: number, now: number): Promise<RateLimitDecision>;
  close(): Promise<void>;
  /** A shared engine's health (Redis): readiness and the outage's log lines. In-memory windows have none. */
  readonly health?: EngineHealth;
}

/** The RateLimit-* header fields of one decision (the draft-06 set the contract chose, part 8). */
export function rateLimitHeaders(decision: RateLimitDecision): Record<string, string> {
  return {
    'ratelimit-limit': String(decision.limit),
    'ratelimit-remaining': String(decision.remaining),
    'ratelimit-reset': String(decision.resetSeconds),
    'ratelimit-policy': `${decision.limit};w=${decision.windowSeconds}`,
  };
}
