/**
 * One invite run: claims members in small batches (durably, before any message to them leaves),
 * hands each message to the mail server, and records what the server said. At most once: a member
 * is re-sent only by a later run with --resend-unconfirmed. What each failure does:
 * - 250: confirmed (sent, with the time).
 * - 4xx: retried with backoff a bounded number of times, then released (never invited; the next run tries again).
 * - 5xx for the message: failed, with the server's reply; the run goes on.
 * - login, sender or TLS refused: released; the run stops (no message could go).
 * - server unreachable: retried with backoff, then released; the run stops.
 * - connection lost during a message: the message may have arrived, so the member stays claimed
 *   (reported as unconfirmed now and by the next run); the run stops.
 * Members claimed but not yet tried when a run stops are released.
 */
import type { InviteFilter } from '../sidecar/domain/invitation.ts';
import type { WaitlistRecord } from '../sidecar/domain/record.ts';
import type { InvitationStore } from '../sidecar/store/waitlist-store.ts';
import { ClaimQueue } from './claim-queue.ts';
import { composeInvitation, type RenderedMessage } from './compose.ts';
import { Confirmations } from './confirmations.ts';
import { HeldChecks } from './held-checks.ts';
import { Pace } from './pace.ts';
import { classifyFailure, failureReply, type MailServer } from './transport.ts';

export type OutcomeState = 'sent' | 'failed' | 'unconfirmed' | 'not_sent';

export interface Outcome {
  email: string;
  lang: WaitlistRecord['lang'];
  state: OutcomeState;
  messageId: string;
  /** The server's reply or the failure, for every state but sent. */
  reply?: string;
}

export interface InviteRunOptions {
  count: number;
  filter: InviteFilter;
  /** Messages per second across all connections; 0: no limit. */
  rate: number;
  /** First re-claim members left claimed by earlier runs (at most `count` in all). */
  resendUnconfirmed: boolean;
  from: string;
  messageIdDomain: string;
  /** Messages in flight at once (one per SMTP connection). */
  connections: number;
  /** Tries of one message against 4xx or an unreachable server, and the first wait between them (doubling). */
  attempts: number;
  backoffMs: number;
}

export interface InviteRunDeps {
  store: InvitationStore;
  mail: MailServer;
  render(record: WaitlistRecord): RenderedMessage;
  now(): Date;
  onOutcome(outcome: Outcome): void;
  /** Aborted: no further member is started; those in flight finish. */
  signal?: AbortSignal;
}

export interface RunSummary {
  sent: number;
  failed: number;
  unconfirmed: number;
  notSent: number;
  /** Why the run stopped before `count`, or undefined (done, or nobody left to invite). */
  stopped?: string;
}

const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));

export async function runInvitations(deps: InviteRunDeps, options: InviteRunOptions): Promise<RunSummary> {
  const { store } = deps;
  const summary: RunSummary = { sent: 0, failed: 0, unconfirmed: 0, notSent: 0 };
  const startedAt = deps.now().toISOString();
  const pace = new Pace(options.rate);
  const halted = () => summary.stopped !== undefined || deps.signal?.aborted === true;
  const stop = (why: string) => (summary.stopped ??= why);

  const report = (record: WaitlistRecord, state: OutcomeState, reply?: string) => {
    const key = state === 'not_sent' ? 'notSent' : state;
    summary[key] += 1;
    deps.onOutcome({ email: record.email, lang: record.lang, state, messageId: record.invitation!.messageId, ...(reply ? { reply } : {}) });
  };

  const queue = new ClaimQueue(store, { ...options, startedAt }, deps.now, halted);
  const checks = new HeldChecks(store, () => queue.upcoming(), options.rate, () => deps.now().getTime());
  const confirmations = new Confirmations(store, (record, error) => {
    if (!error) return report(record, 'sent');
    report(record, 'unconfirmed', 'accepted by the mail server, but the store did not record it');
    stop(`the store could not record a sent invitation (${error.message})`);
  });

  async function deliver(record: WaitlistRecord): Promise<void> {
    const messageId = record.invitation!.messageId;
    // Erased since the claim (an erasure request while the run holds the member in its batch), or
    // re-claimed by another run: nothing is sent. A read, shared with the next members in line.
    if (!(await checks.held(record))) {
      report(record, 'not_sent', 'erased (or re-claimed) after this run claimed the member');
      return;
    }
    const mail = composeInvitation(deps.render(record), { from: options.from, to: record.email, messageId, date: deps.now() });
    for (let attempt = 1; ; attempt++) {
      let error: unknown;
      try {
        await deps.mail.send(mail);
      } catch (caught) {
        error = caught;
      }
      if (error === undefined) {
        await confirmations.add(record, deps.now().toISOString());
        return;
      }
      const kind = classifyFailure(error);
      const reply = failureReply(error);
      if ((kind === 'deferred' || kind === 'unreachable') && attempt < options.attempts && !halted()) {
        await sleep(options.backoffMs * 2 ** (attempt - 1));
        if (!halted()) continue;
        await store.releaseInvitation(record.email, messageId);
        report(record, 'not_sent', reply);
        return;
      }
      if (kind === 'refused') {
        await store.failInvitation(record.email, messageId, reply);
        report(record, 'failed', reply);
      } else if (kind === 'unknown') {
        report(record, 'unconfirmed', reply);
        stop(`the connection to the mail server was lost during a message (${reply})`);
      } else {
        await store.releaseInvitation(record.email, messageId);
        report(record, 'not_sent', reply);
        if (kind === 'blocked') stop(`the mail server refuses this session (${reply})`);
        if (kind === 'unreachable') stop(`the mail server cannot be reached (${reply})`);
      }
      return;
    }
  }

  async function worker(): Promise<void> {
    for (;;) {
      if (halted()) return;
      const record = await queue.next();
      if (!record) return;
      await pace.take();
      if (halted()) {
        queue.putBack(record);
        return;
      }
      await deliver(record);
    }
  }

  try {
    await Promise.all(Array.from({ length: options.connections }, worker));
  } catch (error) {
    stop(`the store failed (${(error as Error).message})`);
  }
  await confirmations.settle();
  // Claimed, never tried: back to never invited, so the next run picks them first.
  for (const record of await queue.leftOver()) await store.releaseInvitation(record.email, record.invitation!.messageId);
  if (deps.signal?.aborted) stop('interrupted');
  return summary;
}
