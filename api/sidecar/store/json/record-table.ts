/**
 * The waitlist records in memory, keyed by normalised address. A Map keeps insertion order, and
 * replacing a key keeps its place, so the table (and the file written from it) stays in sign-up order.
 */
import type { WaitlistRecord } from '../../domain/record.ts';

export class RecordTable {
  readonly #records = new Map<string, WaitlistRecord>();

  constructor(records: Iterable<WaitlistRecord> = []) {
    for (const record of records) this.put(record);
  }

  get size(): number {
    return this.#records.size;
  }

  get(email: string): WaitlistRecord | undefined {
    return this.#records.get(email);
  }

  /** Inserts a record, or replaces the one with the same address in place. */
  put(record: WaitlistRecord): void {
    this.#records.set(record.email, record);
  }

  delete(email: string): boolean {
    return this.#records.delete(email);
  }

  values(): IterableIterator<WaitlistRecord> {
    return this.#records.values();
  }

  /** The never-invited members, in sign-up order (read the whole walk before changing the table). */
  *neverInvited(): Generator<WaitlistRecord> {
    for (const record of this.#records.values()) if (record.invitation === undefined) yield record;
  }

  /** A copy of the list, in sign-up order (records are replaced, never changed in place). */
  list(): WaitlistRecord[] {
    return [...this.#records.values()];
  }
}
