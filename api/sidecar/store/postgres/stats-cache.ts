/**
 * Per-instance cache of the statistics query (docs/api.md, "Statistics on PostgreSQL"): an answer
 * is reused for STATS_CACHE_MS, so polling costs one query per instance per 5 s at most, however
 * many clients poll. This instance's own writes invalidate it (a sign-up is in the next answer
 * here); other instances' writes show within STATS_CACHE_MS. Concurrent misses share one query.
 * `computedAt` of an answer is when its query ran, so a cached answer says how old it is.
 */
import type pg from 'pg';
import type { WaitlistStats } from '../../../contract/index.ts';
import { STATS_SQL, statsFromRow, statsParams } from './stats-query.ts';

export const STATS_CACHE_MS = 5_000;

interface Entry {
  /** The clock time the query was made for. */
  at: number;
  /** The write generation it was started in: a later local write makes it stale. */
  generation: number;
  answer: Promise<WaitlistStats>;
}

export class StatsCache {
  readonly #pool: pg.Pool;
  readonly #ttl: number;
  #generation = 0;
  #entry: Entry | undefined;

  constructor(pool: pg.Pool, ttlMs = STATS_CACHE_MS) {
    this.#pool = pool;
    this.#ttl = ttlMs;
  }

  invalidate(): void {
    this.#generation += 1;
  }

  get(now: number): Promise<WaitlistStats> {
    const entry = this.#entry;
    // A query still running counts as fresh: its answer is shared by everyone who asks meanwhile.
    if (entry && entry.generation === this.#generation && now >= entry.at && now - entry.at < this.#ttl) return entry.answer;
    const answer = this.#query(now);
    const fresh: Entry = { at: now, generation: this.#generation, answer };
    this.#entry = fresh;
    // A failed query is not cached: the next call tries again.
    answer.catch(() => {
      if (this.#entry === fresh) this.#entry = undefined;
    });
    return answer;
  }

  async #query(now: number): Promise<WaitlistStats> {
    const { rows } = await this.#pool.query<Record<string, string>>(STATS_SQL, statsParams(now));
    return statsFromRow(rows[0], now);
  }
}
