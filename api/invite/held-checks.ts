/**
 * Whether the run still holds its claim on a member, asked of the store just before the member's
 * message is handed over: an erasure (a data-protection request) or another run's re-claim made
 * meanwhile means no message. The member about to be sent and the next ones in line are asked about
 * at once, in one call of the store (one request to the sidecar, one statement on PostgreSQL): one
 * call per message was most of what a fast run asked of the service, at normal priority, beside
 * the sign-ups. An answer stands for FRESH_MS, so an erasure made that long before a member's turn
 * always stops the message (one made later may not: the message may already be on its way).
 */
import { MAX_CLAIMS_PER_CALL } from '../sidecar/domain/invitation.ts';
import type { WaitlistRecord } from '../sidecar/domain/record.ts';
import type { InvitationStore } from '../sidecar/store/waitlist-store.ts';

/** How long an answer stands. */
export const FRESH_MS = 1000;

interface Answer {
  messageId: string;
  askedAt: number;
  held: Promise<boolean[]>;
  index: number;
}

export class HeldChecks {
  readonly #store: Pick<InvitationStore, 'claimsHeld'>;
  readonly #upcoming: () => readonly WaitlistRecord[];
  readonly #now: () => number;
  readonly #group: number;
  readonly #answers = new Map<string, Answer>();

  /**
   * `upcoming`: the members next in line, in order. At a rate, a group is what is sent within
   * FRESH_MS (answers for more would be stale by their turn); without one, MAX_CLAIMS_PER_CALL.
   */
  constructor(store: Pick<InvitationStore, 'claimsHeld'>, upcoming: () => readonly WaitlistRecord[], rate: number, now: () => number) {
    this.#store = store;
    this.#upcoming = upcoming;
    this.#now = now;
    this.#group = rate > 0 ? Math.min(MAX_CLAIMS_PER_CALL, Math.max(1, Math.ceil((rate * FRESH_MS) / 1000))) : MAX_CLAIMS_PER_CALL;
  }

  /** Whether the run still holds its claim on `record` (a record it claimed). */
  async held(record: WaitlistRecord): Promise<boolean> {
    const answer = this.#fresh(record) ?? this.#ask(record);
    this.#answers.delete(record.email);
    return (await answer.held)[answer.index];
  }

  #fresh(record: WaitlistRecord): Answer | undefined {
    const answer = this.#answers.get(record.email);
    return answer && answer.messageId === record.invitation!.messageId && this.#now() - answer.askedAt <= FRESH_MS ? answer : undefined;
  }

  #ask(record: WaitlistRecord): Answer {
    const group = [record];
    for (const next of this.#upcoming()) {
      if (group.length >= this.#group) break;
      if (next.email !== record.email && !this.#fresh(next)) group.push(next);
    }
    const askedAt = this.#now();
    // A store that refuses at once (closed) rejects like any failed call.
    const held = Promise.resolve().then(() => this.#store.claimsHeld(group.map(({ email, invitation }) => ({ email, messageId: invitation!.messageId }))));
    group.forEach(({ email, invitation }, index) => this.#answers.set(email, { messageId: invitation!.messageId, askedAt, held, index }));
    return this.#answers.get(record.email)!;
  }
}
