/**
 * Confirmations of an invite run, gathered and recorded together (at BATCH, or DELAY_MS after the
 * first), in one call of the store: one durable write (the JSON engine rewrites its file per
 * commit; PostgreSQL runs one statement) and, on the JSON store, one request to the sidecar, where
 * one of each per message would slow the sign-ups. Until recorded the member is still claimed,
 * which a crash leaves as unconfirmed (reported, never re-sent): the wait risks no second message.
 */
import { MAX_CLAIMS_PER_CALL } from '../sidecar/domain/invitation.ts';
import type { WaitlistRecord } from '../sidecar/domain/record.ts';
import type { InvitationStore } from '../sidecar/store/waitlist-store.ts';

/**
 * Recorded together: one write and one request for this many messages. On the JSON store each
 * write re-serialises the chunks of 256 records it touched, and a run's members are consecutive:
 * a smaller group would re-serialise the same chunk once per group.
 */
const BATCH = MAX_CLAIMS_PER_CALL;
/** The longest a confirmation waits for others to join it. */
const DELAY_MS = 1000;

export class Confirmations {
  readonly #store: InvitationStore;
  readonly #recorded: (record: WaitlistRecord, error?: Error) => void;
  readonly #waiting: { record: WaitlistRecord; at: string }[] = [];
  readonly #writing = new Set<Promise<void>>();
  #timer: NodeJS.Timeout | undefined;

  /** `recorded` is called once per member: without an error once the store holds the confirmation. */
  constructor(store: InvitationStore, recorded: (record: WaitlistRecord, error?: Error) => void) {
    this.#store = store;
    this.#recorded = recorded;
  }

  /** The server accepted the member's message at `at`; resolves at once, or after a full batch is recorded. */
  async add(record: WaitlistRecord, at: string): Promise<void> {
    this.#waiting.push({ record, at });
    if (this.#waiting.length >= BATCH) await this.#flush();
    else this.#timer ??= setTimeout(() => void this.#flush(), DELAY_MS);
  }

  /** Records what waits and resolves when every confirmation is recorded (or failed). */
  async settle(): Promise<void> {
    await this.#flush();
    await Promise.all([...this.#writing]);
  }

  #flush(): Promise<void> {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    const batch = this.#waiting.splice(0);
    if (batch.length === 0) return Promise.resolve();
    const sent = batch.map(({ record, at }) => ({ email: record.email, messageId: record.invitation!.messageId, at }));
    // A store that refuses at once (closed after the run stopped) fails this batch like any other
    // error: its members stay claimed and are reported, and the timer that flushed it throws nothing.
    const writing: Promise<void> = new Promise<boolean[]>((resolve) => resolve(this.#store.confirmInvitations(sent)))
      .then(
        () => batch.forEach(({ record }) => this.#recorded(record)),
        (error: Error) => batch.forEach(({ record }) => this.#recorded(record, error)),
      )
      .finally(() => this.#writing.delete(writing));
    this.#writing.add(writing);
    return writing;
  }
}
