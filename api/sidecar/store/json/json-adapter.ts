/**
 * A lowdb adapter over the waitlist file that (unlike lowdb's JSONFile/steno) makes every write
 * durable and lets the owner serialise: the table is serialised synchronously at the start of a
 * write, so the bytes on disk are the data as it was when the write began.
 */
import type { Adapter } from 'lowdb';
import type { RecordTable } from './record-table.ts';
import { readSnapshot, replaceRecycling } from './recycled-file.ts';
import { storeCodec } from './store-file.ts';

export class DurableJsonFile implements Adapter<RecordTable> {
  readonly path: string;
  readonly #codec: ReturnType<typeof storeCodec>;
  /** The size of the file the last write started. */
  lastWriteBytes = 0;

  constructor(path: string) {
    this.path = path;
    this.#codec = storeCodec(path);
  }

  /** One whole commit, also while another process writes (readSnapshot). */
  async read(): Promise<RecordTable | null> {
    const text = await readSnapshot(this.path);
    return text === undefined ? null : this.#codec.parse(text);
  }

  write(table: RecordTable): Promise<void> {
    const chunks = this.#codec.serialize(table);
    this.lastWriteBytes = chunks.reduce((sum, chunk) => sum + chunk.byteLength, 0);
    return replaceRecycling(this.path, chunks);
  }
}
