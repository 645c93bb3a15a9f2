/**
 * The operator channel of the JSON engine (docs/api.md, "The JSON store"). A call is `POST /<method>`
 * with the method's arguments as a JSON array in the body, so addresses never travel in paths. Answers:
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
