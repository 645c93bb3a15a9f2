/**
 * The waitlist records in memory, with their serialised form cached in chunks. A write joins the
 * cached chunks and re-serialises only the chunks touched since the last write, so the event loop
 * is not blocked by a JSON.stringify of the whole file on every commit (stack-notes §4: 47 ms for
 * 100k records, per write). Invitations go out in sign-up order, so the table also keeps where
 * the never-invited members begin: a claim deep into a long list starts there, not at the first
 * record (at 1,000,000 records, 900,000 of them invited, a walk from the start blocks the
 * sidecar for about 47 ms per claim: scripts/bench/invite-claim.ts).
 */
import type { WaitlistRecord } from '../../domain/record.ts';

const CHUNK_RECORDS = 256;
const encoder = new TextEncoder();

export class RecordTable {
  readonly #records: WaitlistRecord[] = [];
  readonly #index = new Map<string, number>();
  readonly #chunks: (Uint8Array | undefined)[] = [];
  /** Every record before this position has an invitation (claimed, sent or failed). */
  #invitedBefore = 0;

  constructor(records: readonly WaitlistRecord[] = []) {
    for (const record of records) this.put(record);
  }

  get size(): number {
    return this.#records.length;
  }

  get(email: string): WaitlistRecord | undefined {
    const position = this.#index.get(email);
    return position === undefined ? undefined : this.#records[position];
  }

  has(email: string): boolean {
    return this.#index.has(email);
  }

  /** Inserts a record, or replaces the one with the same address in place. */
  put(record: WaitlistRecord): void {
    let position = this.#index.get(record.email);
    if (position === undefined) {
      position = this.#records.length;
      this.#index.set(record.email, position);
      this.#records.push(record);
    } else {
      this.#records[position] = record;
    }
    if (record.invitation === undefined && position < this.#invitedBefore) this.#invitedBefore = position;
    this.#chunks[Math.floor(position / CHUNK_RECORDS)] = undefined;
  }

  /**
   * Removes the record of `email`, keeping the order of the others (the file stays in sign-up
   * order). Costs a pass over the later records: erasure is a rare operator task.
   */
  delete(email: string): boolean {
    const position = this.#index.get(email);
    if (position === undefined) return false;
    this.#records.splice(position, 1);
    this.#index.delete(email);
    for (let i = position; i < this.#records.length; i++) this.#index.set(this.#records[i].email, i);
    this.#chunks.length = Math.floor(position / CHUNK_RECORDS);
    // The later records moved down by one; those before the mark still all have an invitation.
    if (position < this.#invitedBefore) this.#invitedBefore -= 1;
    return true;
  }

  values(): IterableIterator<WaitlistRecord> {
    return this.#records.values();
  }

  /** The never-invited members, in sign-up order (read the whole walk before changing the table). */
  *neverInvited(): Generator<WaitlistRecord> {
    const records = this.#records;
    while (this.#invitedBefore < records.length && records[this.#invitedBefore].invitation !== undefined) this.#invitedBefore += 1;
    for (let i = this.#invitedBefore; i < records.length; i++) if (records[i].invitation === undefined) yield records[i];
  }

  /** A copy of the list, in sign-up order (records are replaced, never changed in place). */
  list(): WaitlistRecord[] {
    return this.#records.slice();
  }

  /** The records as the comma-separated elements of a JSON array, chunk by chunk. */
  serializedRecords(): Uint8Array[] {
    const parts: Uint8Array[] = [];
    const chunkCount = Math.ceil(this.#records.length / CHUNK_RECORDS);
    for (let i = 0; i < chunkCount; i++) {
      let chunk = this.#chunks[i];
      if (!chunk) {
        const slice = this.#records.slice(i * CHUNK_RECORDS, (i + 1) * CHUNK_RECORDS);
        const text = (i > 0 ? ',' : '') + slice.map((record) => JSON.stringify(record)).join(',');
        chunk = encoder.encode(text);
        this.#chunks[i] = chunk;
      }
      parts.push(chunk);
    }
    return parts;
  }
}
