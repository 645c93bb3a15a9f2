/** The records in memory, in sign-up order, serialised in cached chunks: a commit re-serialises only those touched (docs/performance.md). */
import type { WaitlistRecord } from '../../domain/record.ts';

const CHUNK_RECORDS = 256;
const encoder = new TextEncoder();
const COMMA = encoder.encode(',');

export class RecordTable {
  /** In sign-up order; an erased record leaves a hole until the file is next read. */
  readonly #records: (WaitlistRecord | undefined)[] = [];
  readonly #index = new Map<string, number>();
  readonly #chunks: (Uint8Array | undefined)[] = [];

  constructor(records: Iterable<WaitlistRecord> = []) {
    for (const record of records) this.put(record);
  }

  get size(): number {
    return this.#index.size;
  }

  get(email: string): WaitlistRecord | undefined {
    const position = this.#index.get(email);
    return position === undefined ? undefined : this.#records[position];
  }

  put(record: WaitlistRecord): void {
    let position = this.#index.get(record.email);
    if (position === undefined) {
      position = this.#records.length;
      this.#index.set(record.email, position);
      this.#records.push(record);
    } else {
      this.#records[position] = record;
    }
    this.#chunks[Math.floor(position / CHUNK_RECORDS)] = undefined;
  }

  /** Removes the record of `email`, leaving a hole: the others keep their place and their chunk. */
  delete(email: string): boolean {
    const position = this.#index.get(email);
    if (position === undefined) return false;
    this.#records[position] = undefined;
    this.#index.delete(email);
    this.#chunks[Math.floor(position / CHUNK_RECORDS)] = undefined;
    return true;
  }

  *values(): Generator<WaitlistRecord> {
    for (const record of this.#records) if (record) yield record;
  }

  /** The records as the comma-separated elements of a JSON array, chunk by chunk. */
  serializedRecords(): Uint8Array[] {
    const parts: Uint8Array[] = [];
    for (let i = 0; i * CHUNK_RECORDS < this.#records.length; i++) {
      if (!this.#chunks[i]) {
        const slice = this.#records.slice(i * CHUNK_RECORDS, (i + 1) * CHUNK_RECORDS).filter((record) => record !== undefined);
        this.#chunks[i] = encoder.encode(slice.map((record) => JSON.stringify(record)).join(','));
      }
      // A chunk whose records were all erased is empty.
      if (this.#chunks[i]!.byteLength === 0) continue;
      if (parts.length > 0) parts.push(COMMA);
      parts.push(this.#chunks[i]!);
    }
    return parts;
  }
}
