/**
 * The statistics bench's floor: an h3 app on node:http, as the sidecar serves its API, answering
 * every GET with the JSON body it was given and doing nothing else: no token, no rate limit, no
 * store. What the sidecar costs above it is its own work.
 * Usage: node scripts/bench/h3-floor.ts PORT BODY
 */
import http from 'node:http';
import { H3, toNodeHandler } from 'h3';

const [port, body] = process.argv.slice(2);
const app = new H3();
app.get('/**', () => new Response(body, { headers: { 'content-type': 'application/json', 'cache-control': 'no-store' } }));
http.createServer(toNodeHandler(app)).listen(Number(port), '127.0.0.1');
process.on('SIGTERM', () => process.exit(0));
