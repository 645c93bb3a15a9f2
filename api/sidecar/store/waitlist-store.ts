/**
 * The production waitlist store: lowdb over one durable JSON file, with group commit.
 *
 * A sign-up is applied to the in-memory table at once and then waits for the next commit. While a
 * commit is on its way to disk, later sign-ups gather; the next commit serialises once and writes
 * them all. A promise resolves only after the write that holds its change is on disk (fsync of
 * file and directory), so an answered sign-up survives a crash. The previous generation of the
 * file is kept as the next write's temporary file (store/recycled-file.ts) while the store is open;
 * an erasure and close() remove it, so no older copy outlives them.
 */
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { Low } from 'lowdb';
import type { WaitlistSignup } from '../../contract/index.ts';
import type { Channel } from '../domain/consent.ts';
import { mergeSignup, type WaitlistRecord } from '../domain/record.ts';
import { DurableJsonFile } from './json-adapter.ts';
import { RecordTable } from './record-table.ts';
import { storeCodec } from './store-file.ts';

export const STORE_FILE_NAME = 'waitlist.json';

/**
 * The records as last committed, read without the lock (operator export and count while the
 * sidecar runs): every write replaces the file by a rename, so a reader sees one whole commit.
 * Undefined when there is no data file; StartupError when it is corrupt or foreign.
 */
export async function readCommittedRecords(dataDir: string): Promise<RecordTable | undefined> {
  const path = join(dataDir, STORE_FILE_NAME);
  return (await new DurableJsonFile(path, storeCodec(path)).read()) ?? undefined;
}

export interface WaitlistStore {
  /** Adds or updates the record of `signup.email`; resolves once that change is on disk. */
  upsert(signup: WaitlistSignup, channel: Channel, at: string): Promise<void>;
  /** Resolves after the next commit, which happens even if nothing changed. */
  sync(): Promise<void>;
  records(): Iterable<WaitlistRecord>;
  readonly size: number;
  /** Writes to disk so far (each one a group commit); for tests and the benchmark. */
  readonly commits: number;
  /** Waits for pending commits; afterwards the store takes no more changes. */
  close(): Promise<void>;
}

interface Waiter {
  resolve(): void;
  reject(error: unknown): void;
  /** Set by an erasure: the generation replaced by this commit still holds the erased record. */
  discardPrevious?: boolean;
}

export class JsonWaitlistStore implements WaitlistStore {
  readonly #db: Low<RecordTable>;
  readonly #file: DurableJsonFile<RecordTable>;
  #waiting: Waiter[] = [];
  #flushing: Promise<void> | undefined;
  #closed = false;
  #commits = 0;

  private constructor(db: Low<RecordTable>, file: DurableJsonFile<RecordTable>) {
    this.#db = db;
    this.#file = file;
  }

  /**
   * Opens (or creates) DATA_DIR/waitlist.json. Throws StartupError on a corrupt or foreign file.
   * The caller must hold the data-directory lock: the leftovers of a crashed write are removed here.
   */
  static async open(dataDir: string): Promise<JsonWaitlistStore> {
    await mkdir(dataDir, { recursive: true, mode: 0o700 });
    const path = join(dataDir, STORE_FILE_NAME);
    const adapter = new DurableJsonFile(path, storeCodec(path));
    await adapter.removeLeftovers();
    // Built by hand: lowdb's JSONFilePreset swaps in a memory adapter when NODE_ENV=test.
    const db = new Low(adapter, new RecordTable());
    const existing = await adapter.read();
    if (existing) db.data = existing;
    else await db.write();
    return new JsonWaitlistStore(db, adapter);
  }

  get size(): number {
    return this.#db.data.size;
  }

  get commits(): number {
    return this.#commits;
  }

  records(): Iterable<WaitlistRecord> {
    return this.#db.data.values();
  }

  /**
   * Removes the record of an (already normalised) address; resolves with whether there was one,
   * once the file without it is on disk. Only for the operator's erase command (GDPR Art. 17),
   * which holds the data-directory lock instead of the sidecar; the app never erases.
   */
  async erase(email: string): Promise<boolean> {
    if (this.#closed) throw new Error('store is closed');
    const found = this.#db.data.delete(email);
    if (found) await this.#enqueue(true);
    return found;
  }

  upsert(signup: WaitlistSignup, channel: Channel, at: string): Promise<void> {
    if (this.#closed) return Promise.reject(new Error('store is closed'));
    const table = this.#db.data;
    table.put(mergeSignup(table.get(signup.email), signup, channel, at));
    return this.sync();
  }

  sync(): Promise<void> {
    return this.#enqueue(false);
  }

  #enqueue(discardPrevious: boolean): Promise<void> {
    if (this.#closed) return Promise.reject(new Error('store is closed'));
    return new Promise<void>((resolve, reject) => {
      this.#waiting.push({ resolve, reject, discardPrevious });
      // setImmediate lets the sign-ups of the same I/O turn join this commit.
      this.#flushing ??= new Promise<void>((done) => setImmediate(() => this.#flush().then(done)));
    });
  }

  async #flush(): Promise<void> {
    while (this.#waiting.length > 0) {
      const batch = this.#waiting;
      this.#waiting = [];
      try {
        await this.#db.write();
        if (batch.some((waiter) => waiter.discardPrevious)) await this.#file.discardPrevious();
        this.#commits += 1;
        for (const waiter of batch) waiter.resolve();
      } catch (error) {
        for (const waiter of batch) waiter.reject(error);
      }
    }
    this.#flushing = undefined;
  }

  async close(): Promise<void> {
    this.#closed = true;
    while (this.#flushing) await this.#flushing;
    await this.#file.discardPrevious();
  }
}
