/** The waitlist store as the rest of the code sees it, for every engine (docs/api.md, "The store"); addresses come normalised. */
import type { Lang, WaitlistSignup, WaitlistStats } from '../../contract/index.ts';
import type { Channel } from '../domain/record.ts';
import type { InviteClaim, InviteFilter } from '../domain/invitation.ts';
import type { WaitlistRecord } from '../domain/record.ts';
import type { DayRange, DaySeries } from '../domain/day-series.ts';

export interface ExportFilter {
  lang?: Lang;
  /** ISO time; only records with createdAt >= since. */
  since?: string;
}

export interface WaitlistStore extends InvitationStore {
  /** Adds or updates the record of signup.email (merge rules of domain/record.ts); resolves once durable. */
  upsert(signup: WaitlistSignup, channel: Channel, at: string): Promise<void>;
  /** Resolves after one durable round trip that changes nothing (a discarded sign-up looks like a stored one). */
  sync(): Promise<void>;
  /** The counts at `now` (ms since the epoch), equal to domain/stats.ts computeStats over every record. */
  stats(now: number): Promise<WaitlistStats>;
  count(): Promise<number>;
  /** The report's numbers: equal to domain/day-series.ts daySeriesOf over every record. */
  signupsPerDay(range: DayRange): Promise<DaySeries>;
  /** Every matching record, in sign-up order, exactly as stored. */
  export(filter?: ExportFilter): AsyncIterable<WaitlistRecord>;
  /** The record of a normalised address (GDPR Art. 15), or undefined. */
  show(email: string): Promise<WaitlistRecord | undefined>;
  /** Removes the record of a normalised address (GDPR Art. 17); resolves with whether there was one, once durable. */
  erase(email: string): Promise<boolean>;
  /** erase for distinct addresses at once, in one durable write: whether each had a record. */
  eraseMany(emails: string[]): Promise<boolean[]>;
  /** Members per domain of their address (domain/email.ts: lower-cased), for the report. */
  membersPerDomain(): Promise<Map<string, number>>;
  /** Waits for pending writes; afterwards the store takes no more changes. */
  close(): Promise<void>;
}

/** The operator's view of a store (scripts/waitlist.ts): reads and erasure, never sign-ups. */
export type OperatorStore = Pick<WaitlistStore, 'stats' | 'signupsPerDay' | 'count' | 'export' | 'show' | 'erase' | 'eraseMany' | 'membersPerDomain' | 'close'>;

/** One durable write of a store, for metrics: how long it took, how big the data is afterwards. */
export interface CommitInfo {
  durationMs: number;
  /** Bytes written (JSON: the whole file); unknown to PostgreSQL, which writes its own WAL. */
  bytes?: number;
  /** Records in the store afterwards, where the engine knows it without a query (JSON). */
  records?: number;
}

/**
 * The invitations' part of a store (domain/invitation.ts), durable when a call resolves; a member is
 * claimed by one run only. A settlement names the claim's Message-ID, so a late answer for a claim
 * re-claimed (or erased) meanwhile changes nothing.
 */
export interface InvitationStore {
  /** Claims up to claim.count matching members in sign-up order (never invited, or with claimedBefore those left claimed before it), each with a new Message-ID. */
  claimInvitees(claim: InviteClaim): Promise<WaitlistRecord[]>;
  /** claimed -> sent, accepted by the mail server at `at`; false when the record or that claim is gone. */
  confirmInvitation(email: string, messageId: string, at: string): Promise<boolean>;
  /** claimed -> failed with the server's reply (a permanent refusal); false when the record or that claim is gone. */
  failInvitation(email: string, messageId: string, reply: string): Promise<boolean>;
  /** claimed -> never invited, for a claim whose message certainly never reached the server (the run stopped first). */
  releaseInvitation(email: string, messageId: string): Promise<boolean>;
  /** Members claimed and never confirmed (a run stopped between the two), in sign-up order. */
  unconfirmedInvitations(filter?: InviteFilter): Promise<WaitlistRecord[]>;
}
