/**
 * The h3 floor of the sign-up comparison (scripts/bench/signup-peers.ts) and of the statistics
 * pollers (scripts/bench/postgres.ts): an h3 app on the same node adapter as the sidecar (h3's
 * toNodeHandler on node:http, api/sidecar/main.ts) that answers a sign-up's POST, and a GET of the
 * statistics, with JSON of the sidecar's shape, and does no work: no body read, no token, no
 * validation, no store. What the sidecar costs above this is its own work; what this costs is
 * h3's and node:http's, the least the design's framework allows.
 * Usage: node scripts/bench/h3-floor-server.ts; prints `listening on <url>`.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { H3, toNodeHandler } from 'h3';
import { API_PATHS } from '../../api/contract/index.ts';
import { SANDBOX_STATS } from '../../api/sidecar/domain/stats.ts';
import { jsonResponse } from '../../api/sidecar/http/respond.ts';

const app = new H3({ silent: true });
app.post(API_PATHS.waitlist, () => jsonResponse(200, { accepted: true }));
app.get(API_PATHS.stats, () => jsonResponse(200, SANDBOX_STATS));
const server = http.createServer(toNodeHandler(app));

server.listen(0, '127.0.0.1', () => {
  console.log(`listening on http://127.0.0.1:${(server.address() as AddressInfo).port}`);
});
process.on('SIGTERM', () => process.exit(0));
