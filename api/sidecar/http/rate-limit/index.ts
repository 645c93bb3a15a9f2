/**
 * The rate-limit seam (contract part 8): one interface, two engines, chosen once from the
 * configuration. Unset RATE_LIMIT_STORE: windows in this process (memory.ts). Set: windows shared
 * in Redis/Valkey (redis.ts, imported only then, so ioredis loads only then). Both decide with the
 * same fixed-window arithmetic (decide, memory.ts), so they give exactly the same answers.
 */
import type { Config } from '../../../config.ts';
import type { RateLimitPolicy } from '../../../contract/index.ts';
import type { EngineHealth } from '../../health/engine-health.ts';
import type { Logger } from '../log.ts';
import { MemoryRateLimitStore } from './memory.ts';

export { MemoryRateLimitStore };

export interface RateLimitDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Seconds until the window resets (delta-seconds, draft-ietf-httpapi-ratelimit-headers-06). */
  resetSeconds: number;
  windowSeconds: number;
}

/**
 * The seam every engine implements. A window starts with a key's first request and lasts
 * `windowSeconds`; each policy counts separately. `hit` never rejects: an engine that cannot
 * answer decides from a local fallback instead (see redis.ts).
 */
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

type LimitSettings = Pick<Config, 'RATE_LIMIT_WINDOW_SECONDS' | 'RATE_LIMIT_MAX_CLIENTS'>;

export function memoryRateLimitStore(config: LimitSettings): MemoryRateLimitStore {
  return new MemoryRateLimitStore({ windowSeconds: config.RATE_LIMIT_WINDOW_SECONDS, maxKeys: config.RATE_LIMIT_MAX_CLIENTS });
}

/** The engine the configuration selects; an unreachable Redis rejects with a StartupError. */
export async function openRateLimitStore(config: LimitSettings & Pick<Config, 'RATE_LIMIT_STORE'> & Partial<Pick<Config, 'REDIS_CA_FILE'>>, logger: Logger): Promise<RateLimitStore> {
  if (!config.RATE_LIMIT_STORE) return memoryRateLimitStore(config);
  const { RedisRateLimitStore } = await import('./redis.ts');
  return RedisRateLimitStore.open({
    url: config.RATE_LIMIT_STORE,
    windowSeconds: config.RATE_LIMIT_WINDOW_SECONDS,
    maxKeys: config.RATE_LIMIT_MAX_CLIENTS,
    caFile: config.REDIS_CA_FILE,
    logger,
  });
}
