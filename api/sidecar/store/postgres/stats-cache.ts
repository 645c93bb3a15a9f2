/**
 * Per-instance cache of the statistics query (docs/api.md, "Statistics on PostgreSQL"), so polling
 * costs one query per instance per STATS_CACHE_MS at most, however many clients poll and however
 * many sign-ups arrive:
 * - an answer younger than STATS_CACHE_MS is served as it is;
 * - an older one, up to STATS_STALE_LIMIT_MS, is still served at once while ONE query refreshes it
 *   in the background (a poller never waits for the query, which takes ~0.2–0.5 s at 1,000,000 rows);
 * - with no answer, or one older than that, the request waits for the query; concurrent requests
 *   share it.
 * The counts come from the table, so every instance's writes show within these bounds (correct with
 * several writers); `computedAt` of an answer is when its query ran, so a client can see its age.
 * Times are the injected clock's (the `now` the route passes).
 */
import type pg from 'pg';
import type { WaitlistStats } from '../../../contract/index.ts';
import { STATS_SQL, statsFromRow, statsParams } from './stats-query.ts';

export const STATS_CACHE_MS = 5_000;
export const STATS_STALE_LIMIT_MS = 30_000;

interface Answer {
  /** The clock time its query was made for. */
  at: number;
  stats: WaitlistStats;
}

export class StatsCache {
  readonly #pool: pg.Pool;
  #answer: Answer | undefined;
  #query: Promise<Answer> | undefined;

  constructor(pool: pg.Pool) {
    this.#pool = pool;
  }

  async get(now: number): Promise<WaitlistStats> {
    const answer = this.#answer;
    const age = answer ? now - answer.at : Number.POSITIVE_INFINITY;
    if (answer && age >= 0 && age < STATS_CACHE_MS) return answer.stats;
    if (answer && age >= 0 && age < STATS_STALE_LIMIT_MS) {
      // A failed background refresh is retried by the next request; this one has its answer.
      this.#refresh(now).catch(() => {});
      return answer.stats;
    }
    return (await this.#refresh(now)).stats;
  }

  /** Resolves when no query is running (tests: after a background refresh). */
  async settled(): Promise<void> {
    await this.#query?.catch(() => {});
  }

  #refresh(now: number): Promise<Answer> {
    this.#query ??= this.#run(now).finally(() => {
      this.#query = undefined;
    });
    return this.#query;
  }

  async #run(now: number): Promise<Answer> {
    const { rows } = await this.#pool.query<Record<string, string>>(STATS_SQL, statsParams(now));
    const answer = { at: now, stats: statsFromRow(rows[0], now) };
    // A slower query started earlier must not replace a newer answer.
    if (!this.#answer || this.#answer.at <= answer.at) this.#answer = answer;
    return answer;
  }
}
