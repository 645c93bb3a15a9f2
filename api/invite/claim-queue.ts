/**
 * The members an invite run works through, claimed from the store a batch at a time, one claim at
 * a time, the next claim made while the last batch is sent. Small claims: a crash leaves at most
 * about two batches claimed. With a rate, a batch is two seconds of sending; without one it starts
 * at four messages per connection and doubles each time the workers had to wait for a claim, up to
 * MAX_BATCH: a claim is one durable write (the JSON engine rewrites its file), so a slow store
 * needs larger ones to keep the mail server busy.
 */
import type { InviteFilter } from '../sidecar/domain/invitation.ts';
import type { WaitlistRecord } from '../sidecar/domain/record.ts';
import type { InvitationStore } from '../sidecar/store/waitlist-store.ts';

/** The largest claim: members claimed by one durable write. */
const MAX_BATCH = 500;

export interface ClaimQueueOptions {
  count: number;
  filter: InviteFilter;
  rate: number;
  connections: number;
  messageIdDomain: string;
  /** Re-claim members left claimed before `startedAt` first. */
  resendUnconfirmed: boolean;
  startedAt: string;
}

export class ClaimQueue {
  readonly #store: InvitationStore;
  readonly #options: ClaimQueueOptions;
  readonly #now: () => Date;
  readonly #halted: () => boolean;
  readonly #queue: WaitlistRecord[] = [];
  #batch: number;
  #claimed = 0;
  #resending: boolean;
  #exhausted = false;
  #claiming: Promise<void> | undefined;
  #grewFor: Promise<void> | undefined;

  constructor(store: InvitationStore, options: ClaimQueueOptions, now: () => Date, halted: () => boolean) {
    this.#store = store;
    this.#options = options;
    this.#now = now;
    this.#halted = halted;
    this.#resending = options.resendUnconfirmed;
    this.#batch = options.rate > 0 ? Math.min(MAX_BATCH, Math.max(options.connections, Math.ceil(options.rate * 2))) : options.connections * 4;
  }

  /** The next claimed member, or undefined when the run has its count, nobody is left, or it halted. */
  async next(): Promise<WaitlistRecord | undefined> {
    while (this.#queue.length === 0) {
      if (this.#done()) return undefined;
      if (this.#claiming && this.#claiming !== this.#grewFor && this.#options.rate === 0) {
        this.#grewFor = this.#claiming;
        this.#batch = Math.min(MAX_BATCH, this.#batch * 2);
      }
      await this.#refill();
    }
    const record = this.#queue.shift()!;
    // An error of this early claim is met again by the next awaited one.
    if (this.#queue.length <= this.#batch / 2) this.#refill().catch(() => {});
    return record;
  }

  /** The members claimed and not yet taken, in order (a view: it changes as members are taken). */
  upcoming(): readonly WaitlistRecord[] {
    return this.#queue;
  }

  /** A member taken but not tried goes back to the front. */
  putBack(record: WaitlistRecord): void {
    this.#queue.unshift(record);
  }

  /** After the workers stopped: waits for a claim under way, then hands out every member claimed and never tried. */
  async leftOver(): Promise<WaitlistRecord[]> {
    await this.#claiming?.catch(() => {});
    return this.#queue.splice(0);
  }

  #done(): boolean {
    return this.#exhausted || this.#halted() || this.#claimed >= this.#options.count;
  }

  #refill(): Promise<void> {
    this.#claiming ??= (async () => {
      while (this.#queue.length < this.#batch && !this.#done()) {
        const { filter, messageIdDomain, startedAt, count } = this.#options;
        const claim = { count: Math.min(this.#batch, count - this.#claimed), filter, at: this.#now().toISOString(), messageIdDomain };
        const records = await this.#store.claimInvitees(this.#resending ? { ...claim, claimedBefore: startedAt } : claim);
        this.#claimed += records.length;
        this.#queue.push(...records);
        if (records.length === 0) {
          if (this.#resending) this.#resending = false;
          else this.#exhausted = true;
        }
      }
    })().finally(() => (this.#claiming = undefined));
    return this.#claiming;
  }
}
