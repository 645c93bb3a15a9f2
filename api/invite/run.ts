/**
 * One invite run, one loop: claim a few members (durably, before any message to them leaves);
 * leave out those a message cannot reach (a throwaway domain, or one that takes no mail: released
 * unmarked, passed over by the next claims); for each other, check the claim is still held, hand
 * the message to the mail server, and record what it said. At most once: a member is re-sent only
 * by a later run with --resend-unconfirmed. What each outcome of a send does (transport.ts says which is which):
 * - accepted (250): confirmed, with the time;
 * - deferred (4xx) or unreachable (no session): retried with backoff, then released; unreachable stops the run;
 * - refused (5xx for this message: recipient or content): failed, with the server's reply; the run goes on;
 * - blocked (5xx or TLS trouble for the session: login, sender): released; the run stops;
 * - unknown (the connection broke during a message): it may have arrived, so the member stays
 *   claimed, reported as unconfirmed now and by the next run; the run stops.
 * The store failing stops the run (a member it could not settle stays claimed, reported likewise).
 * Members claimed but not yet tried when a run stops are released.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { DomainCheck } from '../deliverability/domain-check.ts';
import { holdsClaim, type InviteFilter } from '../sidecar/domain/invitation.ts';
import type { WaitlistRecord } from '../sidecar/domain/record.ts';
import type { InvitationStore, WaitlistStore } from '../sidecar/store/waitlist-store.ts';
import { composeInvitation, senderDomain, type Renderer } from './compose.ts';
import { classifyFailure, failureReply, type MailServer } from './transport.ts';

/** Members claimed at once (one durable write): a crash leaves at most this many claimed and unconfirmed. */
const CLAIM_SIZE = 16;

export interface Outcome {
  email: string;
  lang: WaitlistRecord['lang'];
  /** left_out comes with its verdict, every other state with the claim's messageId. */
  state: 'sent' | 'failed' | 'unconfirmed' | 'not_sent' | 'left_out';
  messageId?: string;
  /** The server's reply or the failure, for every state but sent and left_out. */
  reply?: string;
  verdict?: keyof RunSummary['leftOut'];
}

interface InviteRunOptions {
  count: number;
  filter: InviteFilter;
  /** Messages per second across all connections; 0: no limit. */
  rate: number;
  /** First re-claim members left claimed by earlier runs (at most `count` in all). */
  resendUnconfirmed: boolean;
  from: string;
  /** Messages in flight at once (one per SMTP connection). */
  connections: number;
  /** Tries of one message against 4xx or an unreachable server, and the first wait between them (doubling). */
  attempts: number;
  backoffMs: number;
}

export interface InviteRunDeps {
  /** The invitation steps, and `show` to check a claim is still held. */
  store: InvitationStore & Pick<WaitlistStore, 'show'>;
  mail: MailServer;
  /** The deliverability check (api/deliverability/); none: every member is sent to (--no-check). */
  check?: DomainCheck;
  render: Renderer;
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
  leftOut: { disposable: number; no_mail: number };
  /** Why the run stopped before `count`, or undefined (done, or nobody left to invite). */
  stopped?: string;
}

/** Resolves when the next message may go: at most `perSecond` a second across every connection (0: no limit). */
function pacer(perSecond: number): () => Promise<void> {
  let next = 0;
  return async () => {
    const now = performance.now();
    const slot = Math.max(now, next);
    next = slot + (perSecond > 0 ? 1000 / perSecond : 0);
    if (slot > now) await sleep(slot - now);
  };
}

export async function runInvitations(deps: InviteRunDeps, options: InviteRunOptions): Promise<RunSummary> {
  const { store } = deps;
  const summary: RunSummary = { sent: 0, failed: 0, unconfirmed: 0, notSent: 0, leftOut: { disposable: 0, no_mail: 0 } };
  const except = new Set<string>();
  const startedAt = deps.now().toISOString();
  const pace = pacer(options.rate);
  const halted = () => summary.stopped !== undefined || deps.signal?.aborted === true;
  const stop = (why: string) => void (summary.stopped ??= why);
  const storeFailed = (error: Error) => stop(`the store failed (${error.message})`);

  const report = (record: WaitlistRecord, state: Exclude<Outcome['state'], 'left_out'>, reply?: string) => {
    summary[state === 'not_sent' ? 'notSent' : state] += 1;
    deps.onOutcome({ email: record.email, lang: record.lang, state, messageId: record.invitation!.messageId, ...(reply ? { reply } : {}) });
  };

  /** The claimed members a message can reach; the others are released unmarked and left out. */
  async function checked(claimed: WaitlistRecord[]): Promise<WaitlistRecord[]> {
    for (const { email, lang, invitation } of claimed) {
      const verdict = await deps.check?.(email);
      if (verdict !== 'disposable' && verdict !== 'no_mail') continue;
      await store.releaseInvitation(email, invitation!.messageId);
      except.add(email);
      summary.leftOut[verdict] += 1;
      deps.onOutcome({ email, lang, state: 'left_out', verdict });
    }
    return claimed.filter((record) => !except.has(record.email));
  }

  /** Hands the message over, retrying 4xx and an unreachable server; the last failure, or undefined once accepted. */
  async function send(record: WaitlistRecord): Promise<unknown> {
    const mail = composeInvitation(deps.render(record), { from: options.from, to: record.email, messageId: record.invitation!.messageId, date: deps.now() });
    for (let attempt = 1; ; attempt++) {
      const error = await deps.mail.sendMail(mail).then(() => undefined, (failure: unknown) => failure);
      const kind = error === undefined ? undefined : classifyFailure(error);
      if ((kind !== 'deferred' && kind !== 'unreachable') || attempt >= options.attempts || halted()) return error;
      await sleep(options.backoffMs * 2 ** (attempt - 1));
      if (halted()) return error;
    }
  }

  async function deliver(record: WaitlistRecord): Promise<void> {
    const { email, invitation } = record;
    const messageId = invitation!.messageId;
    // Erased since the claim (a data-protection request) or re-claimed by another run: no message.
    if (!holdsClaim(await store.show(email), messageId)) return report(record, 'not_sent', 'erased (or re-claimed) after this run claimed the member');
    const error = await send(record);
    if (error === undefined) {
      try {
        await store.confirmInvitation(email, messageId, deps.now().toISOString());
        return report(record, 'sent');
      } catch (failure) {
        report(record, 'unconfirmed', 'accepted by the mail server, but the store did not record it');
        return stop(`the store could not record a sent invitation (${(failure as Error).message})`);
      }
    }
    const kind = classifyFailure(error);
    const reply = failureReply(error);
    if (kind === 'refused') {
      await store.failInvitation(email, messageId, reply);
      return report(record, 'failed', reply);
    }
    if (kind === 'unknown') {
      report(record, 'unconfirmed', reply);
      return stop(`the connection to the mail server was lost during a message (${reply})`);
    }
    // Deferred, blocked or unreachable: the server took nothing, so the member goes back.
    await store.releaseInvitation(email, messageId);
    report(record, 'not_sent', reply);
    if (kind === 'blocked') stop(`the mail server refuses this session (${reply})`);
    if (kind === 'unreachable') stop(`the mail server cannot be reached (${reply})`);
  }

  /** One connection's share of a claim: takes the next member until none is left. */
  async function worker(claimed: WaitlistRecord[]): Promise<void> {
    for (let record = claimed.shift(); record; record = claimed.shift()) {
      if (!halted()) await pace();
      // Once the run halts, the members it claimed and never tried go back to never invited.
      if (halted()) await store.releaseInvitation(record.email, record.invitation!.messageId);
      else await deliver(record);
    }
  }

  async function claimAndSend(): Promise<void> {
    let resending = options.resendUnconfirmed;
    let claimedCount = 0;
    while (!halted() && claimedCount < options.count) {
      const count = Math.min(CLAIM_SIZE, options.count - claimedCount);
      const claim = { count, filter: options.filter, at: deps.now().toISOString(), messageIdDomain: senderDomain(options.from), except: [...except] };
      const fresh = await store.claimInvitees(resending ? { ...claim, claimedBefore: startedAt } : claim);
      if (fresh.length === 0 && !resending) return;
      if (fresh.length === 0) resending = false;
      const claimed = await checked(fresh);
      claimedCount += claimed.length;
      await Promise.all(Array.from({ length: options.connections }, () => worker(claimed).catch(storeFailed)));
    }
  }

  await claimAndSend().catch(storeFailed);
  if (deps.signal?.aborted) stop('interrupted');
  return summary;
}
