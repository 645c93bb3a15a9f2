/** The RateLimit-* header fields of one decision (the draft-06 set the contract chose, part 8). */
import type { RateLimitDecision } from './decision.ts';

export function rateLimitHeaders(decision: RateLimitDecision): Record<string, string> {
  return {
    'ratelimit-limit': String(decision.limit),
    'ratelimit-remaining': String(decision.remaining),
    'ratelimit-reset': String(decision.resetSeconds),
    'ratelimit-policy': `${decision.limit};w=${decision.windowSeconds}`,
  };
}
