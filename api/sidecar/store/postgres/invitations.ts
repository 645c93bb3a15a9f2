/**
 * The invitation steps (domain/invitation.ts) in PostgreSQL, safe with any number of runs on any
 * number of hosts: a claim is ONE statement that locks the rows it picks and skips rows another
 * run's claim holds (FOR UPDATE SKIP LOCKED), so two runs never pick the same member; a row claimed
 * by a run that committed first no longer matches `invite_state IS NULL` when re-checked.
 * Each call commits before it resolves.
 */
import type pg from 'pg';
import { failureText, type InviteClaim, type InviteFilter } from '../../domain/invitation.ts';
import type { WaitlistRecord } from '../../domain/record.ts';
import { RECORD_COLUMNS, recordFromRow, type RecordRow } from './record-row.ts';

/** `AND …` conditions of a filter, numbering parameters after those already in `params`. */
function filterSql(filter: InviteFilter, params: unknown[]): string {
  let sql = '';
  for (const column of ['lang', 'role', 'building', 'source'] as const) {
    if (filter[column] !== undefined) sql += ` AND ${column} = $${params.push(filter[column])}`;
  }
  return sql;
}

const bySignup = (a: WaitlistRecord, b: WaitlistRecord) =>
  a.createdAt === b.createdAt ? (a.email < b.email ? -1 : 1) : a.createdAt < b.createdAt ? -1 : 1;

export async function claimInvitees(pool: pg.Pool, claim: InviteClaim): Promise<WaitlistRecord[]> {
  const params: unknown[] = [claim.at, claim.messageIdDomain, claim.count];
  let which = claim.claimedBefore === undefined ? 'invite_state IS NULL' : `invite_state = 'claimed' AND invite_claimed_at < $${params.push(claim.claimedBefore)}`;
  if (claim.except?.length) which += ` AND email <> ALL($${params.push(claim.except)})`;
  const { rows } = await pool.query<RecordRow>(
    `UPDATE waitlist SET invite_state = 'claimed', invite_claimed_at = $1, invited_at = NULL, invite_error = NULL,
            invite_message_id = '<' || gen_random_uuid() || '@' || $2 || '>'
     WHERE email IN (SELECT email FROM waitlist WHERE ${which}${filterSql(claim.filter, params)}
                     ORDER BY created_at, email LIMIT $3 FOR UPDATE SKIP LOCKED)
     RETURNING ${RECORD_COLUMNS}`,
    params,
  );
  // RETURNING keeps no order.
  return rows.map(recordFromRow).sort(bySignup);
}

/** One claim moved on; false when the row or that claim is gone. */
async function settle(pool: pg.Pool, email: string, messageId: string, set: string, values: unknown[]): Promise<boolean> {
  const { rowCount } = await pool.query(
    `UPDATE waitlist SET ${set} WHERE email = $1 AND invite_message_id = $2 AND invite_state = 'claimed'`,
    [email, messageId, ...values],
  );
  return (rowCount ?? 0) > 0;
}

export function confirmInvitation(pool: pg.Pool, email: string, messageId: string, at: string): Promise<boolean> {
  return settle(pool, email, messageId, "invite_state = 'sent', invited_at = $3", [at]);
}

export function failInvitation(pool: pg.Pool, email: string, messageId: string, reply: string): Promise<boolean> {
  return settle(pool, email, messageId, "invite_state = 'failed', invite_error = $3", [failureText(reply)]);
}

export function releaseInvitation(pool: pg.Pool, email: string, messageId: string): Promise<boolean> {
  return settle(pool, email, messageId, 'invite_state = NULL, invite_claimed_at = NULL, invite_message_id = NULL', []);
}

export async function unconfirmedInvitations(pool: pg.Pool, filter: InviteFilter = {}): Promise<WaitlistRecord[]> {
  const params: unknown[] = [];
  const { rows } = await pool.query<RecordRow>(
    `SELECT ${RECORD_COLUMNS} FROM waitlist WHERE invite_state = 'claimed'${filterSql(filter, params)} ORDER BY created_at, email`,
    params,
  );
  return rows.map(recordFromRow);
}
