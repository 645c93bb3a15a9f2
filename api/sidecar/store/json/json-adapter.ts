/**
 * A lowdb adapter over one JSON file that (unlike lowdb's JSONFile/steno) makes every write
 * durable (store/recycled-file.ts) and lets the owner serialise: `serialize` runs once per write,
 * synchronously at its start, so the bytes on disk are the data as it was when the write began.
 */
import type { Adapter } from 'lowdb';
import { discardRecycled, readSnapshot, removeLeftovers, replaceRecycling } from './recycled-file.ts';

export interface JsonFileCodec<T> {
  /** Parses and validates the file's text; throws on a corrupt or foreign file. */
  parse(text: string): T;
  serialize(data: T): Uint8Array[];
}

export class DurableJsonFile<T> implements Adapter<T> {
  readonly path: string;
  readonly #codec: JsonFileCodec<T>;
  /** The size of the file the last write started. */
  lastWriteBytes = 0;

  constructor(path: string, codec: JsonFileCodec<T>) {
    this.path = path;
    this.#codec = codec;
  }

  /** One whole commit, also while another process writes (readSnapshot). */
  async read(): Promise<T | null> {
    const text = await readSnapshot(this.path);
    return text === undefined ? null : this.#codec.parse(text);
  }

  write(data: T): Promise<void> {
    const chunks = this.#codec.serialize(data);
    this.lastWriteBytes = chunks.reduce((sum, chunk) => sum + chunk.byteLength, 0);
    return replaceRecycling(this.path, chunks);
  }

  /** For the writer holding the data-directory lock, before its first write. */
  removeLeftovers(): Promise<void> {
    return removeLeftovers(this.path);
  }

  /** Drops the previous generation kept for the next write; never while a write is in flight. */
  discardPrevious(): Promise<void> {
    return discardRecycled(this.path);
  }
}
