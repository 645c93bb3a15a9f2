/**
 * A lowdb adapter over the waitlist file that (unlike lowdb's JSONFile/steno) makes every write
 * durable: temporary file, fsync, rename, fsync of the directory (store/durable-file.ts).
 */
import type { Adapter } from 'lowdb';
import { readCommitted, replaceFileDurably } from '../durable-file.ts';
import type { RecordTable } from './record-table.ts';
import { storeCodec, type StoreCodec } from './store-file.ts';

export class DurableJsonFile implements Adapter<RecordTable> {
  readonly path: string;
  readonly #codec: StoreCodec;
  /** The size of the file the last write started. */
  lastWriteBytes = 0;

  constructor(path: string) {
    this.path = path;
    this.#codec = storeCodec(path);
  }

  /** One whole commit, also while another process writes. */
  async read(): Promise<RecordTable | null> {
    const text = await readCommitted(this.path);
    return text === undefined ? null : this.#codec.parse(text);
  }

  write(table: RecordTable): Promise<void> {
    // Serialised synchronously at the start, so the bytes on disk are the table as it was then.
    const chunks = this.#codec.serialize(table);
    this.lastWriteBytes = chunks.reduce((sum, chunk) => sum + chunk.byteLength, 0);
    return replaceFileDurably(this.path, chunks);
  }
}
