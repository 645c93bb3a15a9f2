/**
 * The JSON store's statistics, kept as it changes, so a stats answer never walks the
 * records. Field counts are adjusted per change; the 7- and 30-day counts come from the sign-up
 * times kept sorted, so each is one binary search and exact to the millisecond (per-day buckets
 * would need the boundary day walked anyway). A sign-up's time is its commit time, so new times
 * append at the end; only erasures and out-of-order times move memory. 8 bytes per record.
 */
import type { WaitlistStats } from '../../../contract/index.ts';
import { emptyCounts, statsOf, tally, windowStarts, type FieldCounts } from '../../domain/stats.ts';
import type { WaitlistRecord } from '../../domain/record.ts';

export class RunningStats {
  readonly #counts: FieldCounts = emptyCounts();
  readonly #times = new SortedTimes();

  constructor(records: Iterable<WaitlistRecord> = []) {
    const times: number[] = [];
    for (const record of records) {
      tally(this.#counts, record, 1);
      times.push(Date.parse(record.createdAt));
    }
    this.#times.load(times);
  }

  /** Follows a change of one address: before and after are its record (undefined when absent). */
  change(before: WaitlistRecord | undefined, after: WaitlistRecord | undefined): void {
    if (before) {
      tally(this.#counts, before, -1);
      if (before.createdAt !== after?.createdAt) this.#times.remove(Date.parse(before.createdAt));
    }
    if (after) {
      tally(this.#counts, after, 1);
      if (before?.createdAt !== after.createdAt) this.#times.insert(Date.parse(after.createdAt));
    }
  }

  at(now: number): WaitlistStats {
    const { since7, since30 } = windowStarts(now);
    return statsOf(this.#counts, this.#times.countAfter(since7), this.#times.countAfter(since30), now);
  }
}

/** A multiset of numbers in ascending order, in one growable Float64Array. */
export class SortedTimes {
  #values: Float64Array;
  #size = 0;

  constructor(capacity = 1024) {
    this.#values = new Float64Array(Math.max(1, capacity));
  }

  get size(): number {
    return this.#size;
  }

  load(values: number[]): void {
    values.sort((a, b) => a - b);
    this.#values = new Float64Array(Math.max(1024, values.length * 2));
    this.#values.set(values);
    this.#size = values.length;
  }

  insert(value: number): void {
    if (this.#size === this.#values.length) {
      const grown = new Float64Array(this.#values.length * 2);
      grown.set(this.#values);
      this.#values = grown;
    }
    const at = this.#upperBound(value);
    this.#values.copyWithin(at + 1, at, this.#size);
    this.#values[at] = value;
    this.#size += 1;
  }

  remove(value: number): void {
    const at = this.#upperBound(value) - 1;
    if (at < 0 || this.#values[at] !== value) throw new Error('running stats: removing a time that was never added');
    this.#values.copyWithin(at, at + 1, this.#size);
    this.#size -= 1;
  }

  /** How many values are greater than `bound`. */
  countAfter(bound: number): number {
    return this.#size - this.#upperBound(bound);
  }

  /** The first index whose value is greater than `value`. */
  #upperBound(value: number): number {
    let low = 0;
    let high = this.#size;
    while (low < high) {
      const mid = (low + high) >>> 1;
      if (this.#values[mid] <= value) low = mid + 1;
      else high = mid;
    }
    return low;
  }
}
