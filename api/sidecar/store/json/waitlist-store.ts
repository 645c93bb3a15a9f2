/**
 * The embedded waitlist store: lowdb over one durable JSON file, with group commit.
 *
 * A sign-up is applied to the in-memory table at once and then waits for the next commit. While a
 * commit is on its way to disk, later sign-ups gather; the next commit serialises once and writes
 * them all. A promise resolves only after the write that holds its change is on disk (fsync of
 * file and directory), so an answered sign-up survives a crash. The previous generation of the
 * file is kept as the next write's temporary file (recycled-file.ts) while the store is open; an
 * erasure and close() remove it, so no older copy outlives them. Statistics are kept as the
 * table changes (running-stats.ts). Reads see the table in memory, changes included as soon as
 * they are made (each is on disk within one commit).
 */
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { Low } from 'lowdb';
import type { WaitlistSignup, WaitlistStats } from '../../../contract/index.ts';
import type { Channel } from '../../domain/consent.ts';
import { mergeSignup, type WaitlistRecord } from '../../domain/record.ts';
import { DaySeriesTally, type DayRange, type DaySeries } from '../../domain/day-series.ts';
import type { EngineHealth } from '../../health/engine-health.ts';
import { EngineUnavailableError } from '../../health/unavailable.ts';
import { matchesFilter, type CommitInfo, type ExportFilter, type WaitlistStore } from '../waitlist-store.ts';
import { failureText, type Invitation, type InviteClaim, type InviteFilter } from '../../domain/invitation.ts';
import { claimIn, failedInvitation, sentInvitation, settleIn, unconfirmedIn } from './invitations.ts';
import { DurableJsonFile } from './json-adapter.ts';
import { RecordTable } from './record-table.ts';
import { RunningStats } from './running-stats.ts';
import { storeCodec } from './store-file.ts';

export const STORE_FILE_NAME = 'waitlist.json';
/** Records an export hands out between two turns of the event loop, so serving goes on meanwhile. */
const EXPORT_BATCH = 1000;

export interface JsonStoreOptions {
  /** Called after every group commit (metrics). */
  onCommit?(info: CommitInfo): void;
  /**
   * Told of every commit's outcome: a write the disk refuses (ENOSPC, EIO, a read-only remount)
   * fails its batch with EngineUnavailableError, so those requests answer 500 and the outage is
   * logged once (health/engine-health.ts). The file on disk stays the last whole commit.
   */
  health?: EngineHealth;
}

/**
 * The records as last committed, read without the lock: every write replaces the file by a rename,
 * so a reader sees one whole commit. Undefined when there is no data file; StartupError when it is
 * corrupt or foreign. For the migration to PostgreSQL.
 */
export async function readCommittedRecords(dataDir: string): Promise<RecordTable | undefined> {
  const path = join(dataDir, STORE_FILE_NAME);
  return (await new DurableJsonFile(path, storeCodec(path)).read()) ?? undefined;
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
  readonly #stats: RunningStats;
  readonly #onCommit: JsonStoreOptions['onCommit'];
  readonly #health: EngineHealth | undefined;
  #waiting: Waiter[] = [];
  #flushing: Promise<void> | undefined;
  #closed = false;
  #readOnly = false;
  #commits = 0;

  private constructor(db: Low<RecordTable>, file: DurableJsonFile<RecordTable>, options: JsonStoreOptions) {
    this.#db = db;
    this.#file = file;
    this.#stats = new RunningStats(db.data.values());
    this.#onCommit = options.onCommit;
    this.#health = options.health;
  }

  /**
   * Opens (or creates) DATA_DIR/waitlist.json. Throws StartupError on a corrupt or foreign file.
   * The caller must hold the data-directory lock: the leftovers of a crashed write are removed here.
   */
  static async open(dataDir: string, options: JsonStoreOptions = {}): Promise<JsonWaitlistStore> {
    await mkdir(dataDir, { recursive: true, mode: 0o700 });
    const path = join(dataDir, STORE_FILE_NAME);
    const adapter = new DurableJsonFile(path, storeCodec(path));
    await adapter.removeLeftovers();
    // Built by hand: lowdb's JSONFilePreset swaps in a memory adapter when NODE_ENV=test.
    const db = new Low(adapter, new RecordTable());
    const existing = await adapter.read();
    if (existing) db.data = existing;
    else await db.write();
    return new JsonWaitlistStore(db, adapter, options);
  }

  /**
   * The last commit, read without the lock and without changing anything (operator reads while no
   * sidecar runs); undefined when there is no data file. Its upsert and erase refuse.
   */
  static async readOnly(dataDir: string): Promise<JsonWaitlistStore | undefined> {
    const path = join(dataDir, STORE_FILE_NAME);
    const adapter = new DurableJsonFile(path, storeCodec(path));
    const table = await adapter.read();
    if (!table) return undefined;
    const store = new JsonWaitlistStore(new Low(adapter, table), adapter, {});
    store.#readOnly = true;
    store.#closed = true;
    return store;
  }

  get path(): string {
    return this.#file.path;
  }

  /** The record count, synchronously (start-up line and warning). */
  get size(): number {
    return this.#db.data.size;
  }

  /** Writes to disk so far (each one a group commit); for tests and the benchmark. */
  get commits(): number {
    return this.#commits;
  }

  async count(): Promise<number> {
    return this.#db.data.size;
  }

  async stats(now: number): Promise<WaitlistStats> {
    return this.#stats.at(now);
  }

  /** Over the records in memory, EXPORT_BATCH at a time, so sign-ups are served meanwhile. */
  async signupsPerDay(range: DayRange): Promise<DaySeries> {
    const records = this.#db.data.list();
    const counts = new DaySeriesTally(range);
    for (let i = 0; i < records.length; i++) {
      if (i > 0 && i % (EXPORT_BATCH * 10) === 0) await nextTurn();
      counts.add(records[i]);
    }
    return counts.series();
  }

  async show(email: string): Promise<WaitlistRecord | undefined> {
    return this.#db.data.get(email);
  }

  async *export(filter: ExportFilter = {}): AsyncGenerator<WaitlistRecord> {
    // Records are replaced, never mutated: a copy of the list is a consistent view.
    const records = this.#db.data.list();
    for (let i = 0; i < records.length; i++) {
      if (i > 0 && i % EXPORT_BATCH === 0) await nextTurn();
      if (matchesFilter(records[i], filter)) yield records[i];
    }
  }

  /** Resolves with whether there was a record, once the file without it is on disk. */
  async erase(email: string): Promise<boolean> {
    if (this.#closed) throw new Error(this.#readOnly ? 'store is a read-only snapshot' : 'store is closed');
    const table = this.#db.data;
    const before = table.get(email);
    if (!before) return false;
    table.delete(email);
    this.#stats.change(before, undefined);
    await this.#enqueue(true);
    return true;
  }

  upsert(signup: WaitlistSignup, channel: Channel, at: string): Promise<void> {
    if (this.#closed) return Promise.reject(new Error(this.#readOnly ? 'store is a read-only snapshot' : 'store is closed'));
    const table = this.#db.data;
    const before = table.get(signup.email);
    const after = mergeSignup(before, signup, channel, at);
    table.put(after);
    this.#stats.change(before, after);
    return this.sync();
  }

  sync(): Promise<void> {
    return this.#enqueue(false);
  }

  #enqueue(discardPrevious: boolean): Promise<void> {
    if (this.#closed) return Promise.reject(new Error('store is closed'));
    return new Promise<void>((resolve, reject) => {
      this.#waiting.push({ resolve, reject, discardPrevious });
      this.#startFlush();
    });
  }

  #startFlush(): void {
    // setImmediate lets the sign-ups of the same I/O turn join this commit.
    this.#flushing ??= new Promise<void>((done) => setImmediate(() => this.#flush().then(done)));
  }

  async #flush(): Promise<void> {
    do {
      const batch = this.#waiting;
      this.#waiting = [];
      const startedAt = this.#health?.now();
      try {
        const started = performance.now();
        await this.#db.write();
        if (batch.some((waiter) => waiter.discardPrevious)) await this.#file.discardPrevious();
        this.#commits += 1;
        this.#onCommit?.({ durationMs: performance.now() - started, bytes: this.#file.lastWriteBytes, records: this.#db.data.size });
        this.#health?.succeeded(startedAt);
        for (const waiter of batch) waiter.resolve();
      } catch (error) {
        // The changes stay in memory: the next commit that the disk takes writes them too.
        this.#health?.failed(error);
        const failure = this.#health ? new EngineUnavailableError(this.#health, error) : error;
        for (const waiter of batch) waiter.reject(failure);
      }
    } while (this.#waiting.length > 0);
    this.#flushing = undefined;
  }

  async claimInvitees(claim: InviteClaim): Promise<WaitlistRecord[]> {
    if (this.#closed) throw new Error(this.#readOnly ? 'store is a read-only snapshot' : 'store is closed');
    const claimed = claimIn(this.#db.data, claim);
    if (claimed.length > 0) await this.sync();
    return claimed;
  }

  confirmInvitation(email: string, messageId: string, at: string): Promise<boolean> {
    return this.#settle(email, messageId, (claimed) => sentInvitation(claimed, at));
  }

  failInvitation(email: string, messageId: string, reply: string): Promise<boolean> {
    return this.#settle(email, messageId, (claimed) => failedInvitation(claimed, failureText(reply)));
  }

  releaseInvitation(email: string, messageId: string): Promise<boolean> {
    return this.#settle(email, messageId, () => undefined);
  }

  async unconfirmedInvitations(filter?: InviteFilter): Promise<WaitlistRecord[]> {
    return unconfirmedIn(this.#db.data, filter);
  }

  /** Moves the named claim on (next: its new invitation, or undefined), committed; false when the record or that claim is gone. */
  async #settle(email: string, messageId: string, next: (claimed: Invitation) => Invitation | undefined): Promise<boolean> {
    if (this.#closed) throw new Error(this.#readOnly ? 'store is a read-only snapshot' : 'store is closed');
    const done = settleIn(this.#db.data, email, messageId, next);
    if (done) await this.sync();
    return done;
  }

  async close(): Promise<void> {
    if (this.#readOnly) return;
    this.#closed = true;
    while (this.#flushing) await this.#flushing;
    await this.#file.discardPrevious();
  }
}
