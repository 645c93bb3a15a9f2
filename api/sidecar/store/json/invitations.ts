/**
 * The invitation steps (domain/invitation.ts) over the JSON engine's table in memory; the store
 * commits each change before it answers. One process writes the table (the sidecar, or the
 * operator command holding the data-directory lock), so a claim needs no lock of its own: two runs
 * reach the same table through the sidecar one request at a time.
 */
import { randomUUID } from 'node:crypto';
import { claimable, holdsClaim, matchesInviteFilter, newMessageId, type InviteClaim, type InviteFilter, type Invitation } from '../../domain/invitation.ts';
import type { WaitlistRecord } from '../../domain/record.ts';
import type { RecordTable } from './record-table.ts';

/** Claims the next members (InvitationStore.claimInvitees) in the table; the caller commits. */
export function claimIn(table: RecordTable, claim: InviteClaim): WaitlistRecord[] {
  const claimed: WaitlistRecord[] = [];
  const except = new Set(claim.except);
  for (const record of table.values()) {
    if (claimed.length >= claim.count) break;
    if (!claimable(record.invitation, claim) || !matchesInviteFilter(record, claim.filter) || except.has(record.email)) continue;
    const invitation: Invitation = { state: 'claimed', claimedAt: claim.at, messageId: newMessageId(randomUUID(), claim.messageIdDomain) };
    claimed.push(withInvitation(record, invitation));
  }
  // Replaced after the walk: the table's iterator must not see its own changes.
  for (const record of claimed) table.put(record);
  return claimed;
}

/**
 * Moves the claim `messageId` of `email` on (next: the new invitation, or undefined to release it);
 * false, changing nothing, when the record is gone or holds another state or claim.
 */
export function settleIn(
  table: RecordTable,
  email: string,
  messageId: string,
  next: (claimed: Invitation) => Invitation | undefined,
): boolean {
  const record = table.get(email);
  if (!holdsClaim(record, messageId)) return false;
  table.put(withInvitation(record!, next(record!.invitation!)));
  return true;
}

export function unconfirmedIn(table: RecordTable, filter: InviteFilter = {}): WaitlistRecord[] {
  return [...table.values()].filter((record) => record.invitation?.state === 'claimed' && matchesInviteFilter(record, filter));
}

/** The record with this invitation (or none), keys in the schema's order, as a re-read file has them. */
function withInvitation(record: WaitlistRecord, invitation: Invitation | undefined): WaitlistRecord {
  const { invitation: _old, ...rest } = record;
  return invitation ? { ...rest, invitation } : rest;
}
