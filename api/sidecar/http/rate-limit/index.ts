/** The rate-limit engine (contract part 8): windows in this process, or with RATE_LIMIT_STORE in Redis/Valkey (redis.ts, loaded only then). */
import type { Config } from '../../../config.ts';
import type { Logger } from '../log.ts';
import type { RateLimitStore } from './decision.ts';
import { MemoryRateLimitStore } from './memory.ts';

export { MemoryRateLimitStore };

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
