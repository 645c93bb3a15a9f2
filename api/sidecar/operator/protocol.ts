/**
 * The operator channel of the JSON engine, so operator tasks need no downtime: the
 * sidecar, single writer of the waitlist file, serves a tiny HTTP API on the Unix socket
 * DATA_DIR/operator.sock (mode 0600, in a 0700 directory, never behind the front or any TCP port),
 * and `npm run waitlist` talks to it while the sidecar runs. Addresses travel in request bodies,
 * never in paths.
 *
 *   GET  /count                    {"count": n}
 *   GET  /stats?now=MS             WaitlistStats
 *   GET  /series?since=ISO&until=ISO   DaySeries (first sign-ups per UTC day; domain/day-series.ts)
 *   GET  /export?lang=L&since=ISO  the records as JSON lines
 *   POST /show   {"email": e}      the record, or 404
 *   POST /erase  {"emails": [e, ...]}  {"erased": [true|false, ...]}, in one durable write
 *   GET  /domains                  {"domains": [[domain, members], ...]}
 *   POST /invite/claim       InviteClaim (domain/invitation.ts)  {"records": [...]} claimed, once durable
 *   POST /invite/confirm     {"email", "messageId", "at"}        {"done": true|false}, once durable
 *   POST /invite/fail        {"email", "messageId", "reply"}     {"done": true|false}, once durable
 *   POST /invite/release     {"email", "messageId"}              {"done": true|false}, once durable
 *   POST /invite/unconfirmed {"filter": InviteFilter}            {"records": [...]} claimed, never confirmed
 */
import { join } from 'node:path';

export function operatorSocketPath(dataDir: string): string {
  return join(dataDir, 'operator.sock');
}
