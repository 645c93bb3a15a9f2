/**
 * Fixed windows in this process's memory: the default engine, and the fallback of the Redis one.
 * Each policy has its own table with its own cap, so a flood under one cannot push the other's
 * clients out. All windows of a table have one length, so keys end in arrival order: expired ones
 * are swept from the front of an array queue in amortised O(1) per hit, and a full table evicts the
 * window that ends soonest. Not by iterating the Map: V8's iterator walks every deleted slot before
 * the first live one, which makes each sweep O(n) under a flood of new clients.
 */
import type { RateLimitPolicy } from '../../../contract/index.ts';
import type { RateLimitDecision, RateLimitStore } from './decision.ts';

/** The decision for the `count`-th request of a window that ends at `resetAt` (ms); the Redis engine's too. */
export function decide(count: number, resetAt: number, limit: number, now: number, windowMs: number): RateLimitDecision {
  return {
    allowed: count <= limit,
    limit,
    remaining: Math.max(0, limit - count),
    resetSeconds: Math.max(1, Math.ceil((resetAt - now) / 1000)),
    windowSeconds: windowMs / 1000,
  };
}

interface Window {
  count: number;
  resetAt: number;
}

/** One policy's windows, never more than `maxKeys` of them. */
class WindowTable {
  readonly #windowMs: number;
  readonly #maxKeys: number;
  readonly #windows = new Map<string, Window>();
  /** The keys of #windows in arrival order, from #head on (slots before it are spent). */
  #queue: string[] = [];
  #head = 0;

  constructor(windowMs: number, maxKeys: number) {
    this.#windowMs = windowMs;
    this.#maxKeys = maxKeys;
  }

  get size(): number {
    return this.#windows.size;
  }

  hit(key: string, limit: number, now: number): RateLimitDecision {
    this.#sweep(now);
    let window = this.#windows.get(key);
    if (!window) {
      if (this.#windows.size >= this.#maxKeys) this.#dropOldest();
      window = { count: 0, resetAt: now + this.#windowMs };
      this.#windows.set(key, window);
      this.#queue.push(key);
    }
    window.count += 1;
    return decide(window.count, window.resetAt, limit, now, this.#windowMs);
  }

  #sweep(now: number): void {
    while (this.#head < this.#queue.length && this.#windows.get(this.#queue[this.#head])!.resetAt <= now) this.#dropOldest();
  }

  #dropOldest(): void {
    this.#windows.delete(this.#queue[this.#head]);
    this.#head += 1;
    // Drop the spent slots once they are half the array: O(1) amortised, memory stays ~2 × maxKeys slots.
    if (this.#head >= 1024 && this.#head * 2 >= this.#queue.length) {
      this.#queue = this.#queue.slice(this.#head);
      this.#head = 0;
    }
  }
}

export class MemoryRateLimitStore implements RateLimitStore {
  readonly #tables: Record<RateLimitPolicy, WindowTable>;

  constructor(options: { windowSeconds: number; maxKeys: number }) {
    const table = () => new WindowTable(options.windowSeconds * 1000, options.maxKeys);
    this.#tables = { relaxed: table(), standard: table() };
  }

  /** Tracked clients of one policy (tests and the memory benchmark). */
  size(policy: RateLimitPolicy): number {
    return this.#tables[policy].size;
  }

  /** The synchronous decision, for callers that must not wait (the Redis engine's fallback). */
  hitNow(policy: RateLimitPolicy, key: string, limit: number, now: number): RateLimitDecision {
    return this.#tables[policy].hit(key, limit, now);
  }

  hit(policy: RateLimitPolicy, key: string, limit: number, now: number): Promise<RateLimitDecision> {
    return Promise.resolve(this.hitNow(policy, key, limit, now));
  }

  /** The windows go with this object: nothing to release. */
  async close(): Promise<void> {}
}
