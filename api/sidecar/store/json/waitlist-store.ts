/** The embedded waitlist store: lowdb over one durable JSON file, with group commit (docs/api.md, "The JSON store"). */
import { randomUUID } from 'node:crypto';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { Low } from 'lowdb';
import type { WaitlistSignup, WaitlistStats } from '../../../contract/index.ts';
import type { Channel } from '../../domain/record.ts';
import { mergeSignup, type WaitlistRecord } from '../../domain/record.ts';
import { daySeriesOf, type DayRange, type DaySeries } from '../../domain/day-series.ts';
import { computeStats } from '../../domain/stats.ts';
import { EngineUnavailableError, type EngineHealth } from '../../health/engine-health.ts';
import type { CommitInfo, ExportFilter, WaitlistStore } from '../waitlist-store.ts';
import { claimable, failureText, holdsClaim, matchesInviteFilter, newMessageId, type Invitation, type InviteClaim, type InviteFilter } from '../../domain/invitation.ts';
import { DurableJsonFile } from './store-file.ts';
import { discardRecycled, removeLeftovers } from './recycled-file.ts';
import { RecordTable } from './record-table.ts';

export const STORE_FILE_NAME = 'waitlist.json';

interface JsonStoreOptions {
  /** Called after every group commit (metrics). */
  onCommit?(info: CommitInfo): void;
  /** Told of every commit's outcome: a write the disk refuses fails its batch with EngineUnavailableError (a 500, the outage logged once). */
  health?: EngineHealth;
}

interface Waiter {
  resolve(): void;
  reject(error: unknown): void;
  /** Set by an erasure: the generation replaced by this commit still holds the erased record. */
  discardPrevious?: boolean;
}

export class JsonWaitlistStore implements WaitlistStore {
  readonly #file: DurableJsonFile;
  readonly #db: Low<RecordTable>;
  readonly #options: JsonStoreOptions;
  #waiting: Waiter[] = [];
  #flushing: Promise<void> | undefined;
  #closed: 'closed' | 'a read-only snapshot' | undefined;
  #commits = 0;

  private constructor(file: DurableJsonFile, table: RecordTable, options: JsonStoreOptions) {
    this.#file = file;
    this.#db = new Low(file, table);
    this.#options = options;
  }

  /** Opens (or creates) DATA_DIR/waitlist.json; StartupError on a corrupt or foreign file. The caller holds the data-directory lock. */
  static async open(dataDir: string, options: JsonStoreOptions = {}): Promise<JsonWaitlistStore> {
    await mkdir(dataDir, { recursive: true, mode: 0o700 });
    const file = new DurableJsonFile(join(dataDir, STORE_FILE_NAME));
    await removeLeftovers(file.path);
    // Not lowdb's JSONFilePreset, which swaps in a memory adapter when NODE_ENV=test.
    const existing = await file.read();
    const store = new JsonWaitlistStore(file, existing ?? new RecordTable(), options);
    if (!existing) await store.#db.write();
    return store;
  }

  /** The last commit, read without the lock (operator reads, the migration); undefined without a data file. Its changes refuse. */
  static async readOnly(dataDir: string): Promise<JsonWaitlistStore | undefined> {
    const file = new DurableJsonFile(join(dataDir, STORE_FILE_NAME));
    const table = await file.read();
    if (!table) return undefined;
    const store = new JsonWaitlistStore(file, table, {});
    store.#closed = 'a read-only snapshot';
    return store;
  }

  /** Writes to disk so far (each one a group commit); for tests and the benchmark. */
  get commits(): number {
    return this.#commits;
  }

  async count(): Promise<number> {
    return this.#db.data.size;
  }

  async stats(now: number): Promise<WaitlistStats> {
    return computeStats(this.#db.data.values(), now);
  }

  async signupsPerDay(range: DayRange): Promise<DaySeries> {
    return daySeriesOf(this.#db.data.values(), range);
  }

  async show(email: string): Promise<WaitlistRecord | undefined> {
    return this.#db.data.get(email);
  }

  async *export(filter: ExportFilter = {}): AsyncGenerator<WaitlistRecord> {
    const since = filter.since === undefined ? -Infinity : Date.parse(filter.since);
    // Records are replaced, never mutated: a copy of the list is a consistent view.
    for (const record of [...this.#db.data.values()]) {
      if ((filter.lang === undefined || record.lang === filter.lang) && Date.parse(record.createdAt) >= since) yield record;
    }
  }

  async erase(email: string): Promise<boolean> {
    return (await this.eraseMany([email]))[0];
  }

  async eraseMany(emails: string[]): Promise<boolean[]> {
    this.#refuseIfClosed();
    const erased = emails.map((email) => this.#db.data.delete(email));
    if (erased.includes(true)) await this.#commit(true);
    return erased;
  }

  async membersPerDomain(): Promise<Map<string, number>> {
    const members = new Map<string, number>();
    for (const { email } of this.#db.data.values()) {
      const domain = email.slice(email.lastIndexOf('@') + 1);
      members.set(domain, (members.get(domain) ?? 0) + 1);
    }
    return members;
  }

  async upsert(signup: WaitlistSignup, channel: Channel, at: string): Promise<void> {
    this.#refuseIfClosed();
    const table = this.#db.data;
    table.put(mergeSignup(table.get(signup.email), signup, channel, at));
    await this.sync();
  }

  sync(): Promise<void> {
    return this.#commit(false);
  }

  #commit(discardPrevious: boolean): Promise<void> {
    if (this.#closed) return Promise.reject(new Error(`store is ${this.#closed}`));
    return new Promise<void>((resolve, reject) => {
      this.#waiting.push({ resolve, reject, discardPrevious });
      this.#flushing ??= this.#flush();
    });
  }

  /** Group commit: each write takes every change waiting when it starts. */
  async #flush(): Promise<void> {
    // One turn of the event loop lets the sign-ups read in the same I/O turn join the first write.
    await nextTurn();
    const { health, onCommit } = this.#options;
    while (this.#waiting.length > 0) {
      const batch = this.#waiting;
      this.#waiting = [];
      const startedAt = health?.now();
      try {
        const started = performance.now();
        await this.#db.write();
        if (batch.some((waiter) => waiter.discardPrevious)) await discardRecycled(this.#file.path);
        this.#commits += 1;
        onCommit?.({ durationMs: performance.now() - started, bytes: this.#file.lastWriteBytes, records: this.#db.data.size });
        health?.succeeded(startedAt);
        for (const waiter of batch) waiter.resolve();
      } catch (error) {
        // The changes stay in memory: the next commit that the disk takes writes them too.
        health?.failed(error);
        const failure = health ? new EngineUnavailableError(health, error) : error;
        for (const waiter of batch) waiter.reject(failure);
      }
    }
    this.#flushing = undefined;
  }

  #refuseIfClosed(): void {
    if (this.#closed) throw new Error(`store is ${this.#closed}`);
  }

  /** The invitation steps (domain/invitation.ts), each committed before it answers; one process writes the table, so a claim needs no lock. */
  async claimInvitees(claim: InviteClaim): Promise<WaitlistRecord[]> {
    this.#refuseIfClosed();
    const table = this.#db.data;
    const claimed: WaitlistRecord[] = [];
    const except = new Set(claim.except);
    for (const record of table.values()) {
      if (claimed.length >= claim.count) break;
      if (!claimable(record.invitation, claim) || !matchesInviteFilter(record, claim.filter) || except.has(record.email)) continue;
      claimed.push(withInvitation(record, { state: 'claimed', claimedAt: claim.at, messageId: newMessageId(randomUUID(), claim.messageIdDomain) }));
    }
    // Replaced after the walk: the table's iterator must not see its own changes.
    for (const record of claimed) table.put(record);
    if (claimed.length > 0) await this.sync();
    return claimed;
  }

  confirmInvitation(email: string, messageId: string, at: string): Promise<boolean> {
    return this.#settle(email, messageId, (claimed) => ({ state: 'sent', claimedAt: claimed.claimedAt, invitedAt: at, messageId }));
  }

  failInvitation(email: string, messageId: string, reply: string): Promise<boolean> {
    return this.#settle(email, messageId, (claimed) => ({ state: 'failed', claimedAt: claimed.claimedAt, messageId, error: failureText(reply) }));
  }

  releaseInvitation(email: string, messageId: string): Promise<boolean> {
    return this.#settle(email, messageId, () => undefined);
  }

  async unconfirmedInvitations(filter: InviteFilter = {}): Promise<WaitlistRecord[]> {
    return [...this.#db.data.values()].filter((record) => record.invitation?.state === 'claimed' && matchesInviteFilter(record, filter));
  }

  /** Moves the named claim on (next: its new invitation, or undefined), committed; false, changing nothing, when the record or that claim is gone. */
  async #settle(email: string, messageId: string, next: (claimed: Invitation) => Invitation | undefined): Promise<boolean> {
    this.#refuseIfClosed();
    const record = this.#db.data.get(email);
    if (!record || !holdsClaim(record, messageId)) return false;
    this.#db.data.put(withInvitation(record, next(record.invitation!)));
    await this.sync();
    return true;
  }

  async close(): Promise<void> {
    if (this.#closed === 'a read-only snapshot') return;
    this.#closed = 'closed';
    await this.#flushing;
    await discardRecycled(this.#file.path);
  }
}

/** The record with this invitation (or none), keys in the schema's order, as a re-read file has them. */
function withInvitation(record: WaitlistRecord, invitation: Invitation | undefined): WaitlistRecord {
  const { invitation: _old, ...rest } = record;
  return invitation ? { ...rest, invitation } : rest;
}
