/**
 * Fixed-window rate limiting as pure arithmetic over an injected clock (contract part 8).
 *
 * Every key has one window that starts with its first request. All windows have the same length,
 * so the Map's insertion order is also the order in which windows end: expired entries are swept
 * from the front in amortised O(1) per hit, and when the table is full the entry whose window
 * ends soonest is evicted. A flood from millions of addresses therefore cannot grow the table
 * past `maxKeys`.
 */

export interface RateLimitDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Seconds until the window resets (delta-seconds, draft-ietf-httpapi-ratelimit-headers-06). */
  resetSeconds: number;
  windowSeconds: number;
}

interface Window {
  count: number;
  resetAt: number;
}

export class RateLimiter {
  readonly #windowMs: number;
  readonly #maxKeys: number;
  readonly #windows = new Map<string, Window>();

  constructor(options: { windowSeconds: number; maxKeys: number }) {
    this.#windowMs = options.windowSeconds * 1000;
    this.#maxKeys = options.maxKeys;
  }

  get size(): number {
    return this.#windows.size;
  }

  /** Counts one request for `key` at time `now` (ms) against `limit`. */
  hit(key: string, limit: number, now: number): RateLimitDecision {
    this.#sweep(now);
    let window = this.#windows.get(key);
    if (!window) {
      if (this.#windows.size >= this.#maxKeys) this.#evictOldest();
      window = { count: 0, resetAt: now + this.#windowMs };
      this.#windows.set(key, window);
    }
    window.count += 1;
    return {
      allowed: window.count <= limit,
      limit,
      remaining: Math.max(0, limit - window.count),
      resetSeconds: Math.max(1, Math.ceil((window.resetAt - now) / 1000)),
      windowSeconds: this.#windowMs / 1000,
    };
  }

  #sweep(now: number): void {
    for (const [key, window] of this.#windows) {
      if (window.resetAt > now) return;
      this.#windows.delete(key);
    }
  }

  #evictOldest(): void {
    const oldest = this.#windows.keys().next();
    if (!oldest.done) this.#windows.delete(oldest.value);
  }
}

/** The four RateLimit-* fields (draft-06 set chosen by the contract) of one decision. */
export function rateLimitHeaders(decision: RateLimitDecision): Record<string, string> {
  return {
    'ratelimit-limit': String(decision.limit),
    'ratelimit-remaining': String(decision.remaining),
    'ratelimit-reset': String(decision.resetSeconds),
    'ratelimit-policy': `${decision.limit};w=${decision.windowSeconds}`,
  };
}
