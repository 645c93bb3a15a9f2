/**
 * The waitlist data file: `{"format":"waitlist-store","version":1,"records":[...]}`, compact JSON.
 * The format marker tells our file from any other JSON file; a file without it, with another
 * version, with an invalid record or with one address twice is refused, never overwritten.
 */
import type { Adapter } from 'lowdb';
import { z } from 'zod';
import { WaitlistRecord } from '../../domain/record.ts';
import { StartupError } from '../errors.ts';
import { RecordTable } from './record-table.ts';
import { readSnapshot, replaceRecycling } from './recycled-file.ts';

const STORE_FORMAT = 'waitlist-store';
const STORE_VERSION = 1;

const StoreDocument = z
  .object({
    format: z.literal(STORE_FORMAT),
    version: z.literal(STORE_VERSION),
    records: z.array(WaitlistRecord),
  })
  .strict();

const encoder = new TextEncoder();
const HEAD = encoder.encode(`{"format":"${STORE_FORMAT}","version":${STORE_VERSION},"records":[`);
const TAIL = encoder.encode(']}\n');

/** parse throws StartupError on a corrupt or foreign file. */
export function storeCodec(path: string) {
  const refuse = (why: string) =>
    new StartupError(
      `The data file ${path} ${why}. The sidecar will not start and has left the file untouched. ` +
        'Restore it from a backup, or move it away to start with an empty waitlist.',
    );
  return {
    parse(text: string): RecordTable {
      let json: unknown;
      try {
        json = JSON.parse(text);
      } catch {
        throw refuse('is not valid JSON (truncated or corrupt)');
      }
      const result = StoreDocument.safeParse(json);
      if (!result.success) {
        const issue = result.error.issues[0];
        const where = issue.path.slice(0, 2).join('.') || 'top level';
        throw refuse(`is not a waitlist store file of version ${STORE_VERSION} (problem at ${where}: ${issue.code})`);
      }
      const table = new RecordTable(result.data.records);
      if (table.size !== result.data.records.length) throw refuse('holds the same address twice');
      return table;
    },
  };
}

/** The lowdb adapter whose writes are durable (unlike lowdb's JSONFile), serialised when the write begins. */
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
    const chunks = [HEAD, ...table.serializedRecords(), TAIL];
    this.lastWriteBytes = chunks.reduce((sum, chunk) => sum + chunk.byteLength, 0);
    return replaceRecycling(this.path, chunks);
  }
}
