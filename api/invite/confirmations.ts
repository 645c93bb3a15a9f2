/**
 * Confirmations of an invite run, gathered and recorded together (at BATCH, or DELAY_MS after the
 * first): the JSON engine rewrites its file per commit, and one commit per message at a steady pace
 * would slow the sign-ups. Until recorded the member is still claimed, which a crash leaves as
 * unconfirmed (reported, never re-sent): the wait risks no second message.
 */
import type { WaitlistRecord } from '../sidecar/domain/record.ts';
import type { InvitationStore } from '../sidecar/store/waitlist-store.ts';

/** Recorded together: fewer than the connections of a PostgreSQL pool, many for one JSON commit. */
const BATCH = 16;
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
    const writing: Promise<void> = Promise.all(
      batch.map(({ record, at }) =>
        this.#store.confirmInvitation(record.email, record.invitation!.messageId, at).then(
          () => this.#recorded(record),
          (error: Error) => this.#recorded(record, error),
        ),
      ),
    )
      .then(() => undefined)
      .finally(() => this.#writing.delete(writing));
    this.#writing.add(writing);
    return writing;
  }
}
