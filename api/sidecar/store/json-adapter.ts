/**
 * A lowdb adapter over one JSON file that (unlike lowdb's JSONFile/steno) makes every write
 * durable (store/durable-file.ts) and lets the owner serialise: `serialize` runs once per write,
 * synchronously at its start, so the bytes on disk are the data as it was when the write began.
 */
import { readFile } from 'node:fs/promises';
import type { Adapter } from 'lowdb';
import { replaceFileDurably } from './durable-file.ts';

export interface JsonFileCodec<T> {
  /** Parses and validates the file's text; throws on a corrupt or foreign file. */
  parse(text: string): T;
  serialize(data: T): Uint8Array[];
}

export class DurableJsonFile<T> implements Adapter<T> {
  readonly path: string;
  readonly #codec: JsonFileCodec<T>;

  constructor(path: string, codec: JsonFileCodec<T>) {
    this.path = path;
    this.#codec = codec;
  }

  async read(): Promise<T | null> {
    let text: string;
    try {
      text = await readFile(this.path, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw error;
    }
    return this.#codec.parse(text);
  }

  write(data: T): Promise<void> {
    const chunks = this.#codec.serialize(data);
    return replaceFileDurably(this.path, chunks);
  }
}
