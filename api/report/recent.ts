/**
 * What the report tells of the members' addresses without showing one: how many are at throwaway
 * domains (from the list, offline: the report never asks DNS), and first sign-ups per hour over the
 * last 48 hours, where a bot's burst shows beside a launch post's wave. Counted from the records
 * as they stream past; pure: `now` and the list are passed in.
 */
import { domainOf, isDisposable } from '../deliverability/verdict.ts';
import type { WaitlistRecord } from '../sidecar/domain/record.ts';

export const RECENT_HOURS = 48;
const HOUR_MS = 3_600_000;

export interface Recent {
  /** Members up to `now` at a throwaway domain, and their percentage of all members (one decimal). */
  throwaway: { members: number; percent: number };
  /** The start of each UTC hour (ISO), oldest first; the last is the hour of `now`, counted up to `now`. */
  hours: string[];
  /** First sign-ups in each of those hours. */
  perHour: number[];
}

export class RecentTally {
  readonly #now: number;
  readonly #first: number;
  readonly #list: ReadonlySet<string>;
  readonly #perHour = new Array<number>(RECENT_HOURS).fill(0);
  #members = 0;
  #throwaway = 0;

  constructor(now: number, list: ReadonlySet<string>) {
    this.#now = now;
    this.#first = (Math.floor(now / HOUR_MS) - RECENT_HOURS + 1) * HOUR_MS;
    this.#list = list;
  }

  add(record: WaitlistRecord): void {
    const created = Date.parse(record.createdAt);
    if (created > this.#now) return;
    this.#members += 1;
    if (isDisposable(domainOf(record.email), this.#list)) this.#throwaway += 1;
    if (created >= this.#first) this.#perHour[Math.floor((created - this.#first) / HOUR_MS)] += 1;
  }

  result(): Recent {
    const percent = this.#members ? Math.round((this.#throwaway / this.#members) * 1000) / 10 : 0;
    return {
      throwaway: { members: this.#throwaway, percent },
      hours: this.#perHour.map((_, i) => new Date(this.#first + i * HOUR_MS).toISOString()),
      perHour: [...this.#perHour],
    };
  }
}
