/**
 * The operator channel of the JSON engine, so operator tasks need no downtime: the sidecar, single
 * writer of the waitlist file, answers calls of its store (store/waitlist-store.ts) on the Unix
 * socket DATA_DIR/operator.sock (mode 0600, in a 0700 directory, never behind the front or any TCP
 * port), and `npm run waitlist` makes them while the sidecar runs. A call is `POST /<method>` with
 * the method's arguments as a JSON array in the body, so addresses never travel in paths. Answers:
 * 200 `{"result": …}` (export: the records as JSON lines), 400 for arguments the method does not
 * take, 404 for a method the channel does not serve.
 */
import { join } from 'node:path';

/** The store methods a call names, besides `export`, which streams its records. */
export const CALLS = [
  'count', 'stats', 'signupsPerDay', 'membersPerDomain', 'show', 'erase', 'eraseMany',
  'claimInvitees', 'confirmInvitation', 'failInvitation', 'releaseInvitation', 'unconfirmedInvitations',
] as const;
export type Call = (typeof CALLS)[number];

export function operatorSocketPath(dataDir: string): string {
  return join(dataDir, 'operator.sock');
}
