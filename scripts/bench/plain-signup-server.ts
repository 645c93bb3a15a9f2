/**
 * The sign-up peer: what a plain Node server does for a JSON sign-up on the same database, the
 * yardstick the sidecar's CPU per sign-up is measured against (scripts/bench/signup-peers.ts).
 * node:http, a `pg` pool of the sidecar's size (DATABASE_POOL_SIZE's default), the contract's own
 * schema (WaitlistSignup) and the store's own statement with its own parameters
 * (store/postgres/upsert-statement.ts), so it follows every change of them and the database does
 * the same work per sign-up. Nothing else: no rate limits, no request line, no content
 * negotiation, no body limit, no metrics: the least a correct server for this one request does.
 * Usage: node scripts/bench/plain-signup-server.ts <database-url>; prints `listening on <url>`.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import pg from 'pg';
import { loadConfig } from '../../api/config.ts';
import { WaitlistSignup } from '../../api/contract/index.ts';
import { upsertQuery } from '../../api/sidecar/store/postgres/upsert-statement.ts';

const poolSize = loadConfig({ BASE_URL: 'http://127.0.0.1' }).DATABASE_POOL_SIZE;
const pool = new pg.Pool({ connectionString: process.argv[2], max: poolSize, keepAlive: true });
const ACCEPTED = JSON.stringify({ accepted: true });

function answer(res: http.ServerResponse, status: number, body: string): void {
  res.writeHead(status, ['Content-Type', 'application/json', 'Content-Length', String(Buffer.byteLength(body))]);
  res.end(body);
}

const server = http.createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.on('end', async () => {
    let value: unknown;
    try {
      value = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    } catch {
      return answer(res, 400, '{"error":"invalid_json"}');
    }
    const parsed = WaitlistSignup.safeParse(value);
    if (!parsed.success) return answer(res, 400, '{"error":"invalid_request"}');
    try {
      await pool.query(upsertQuery(parsed.data, 'json', new Date().toISOString()));
      answer(res, 200, ACCEPTED);
    } catch {
      answer(res, 500, '{"error":"internal_error"}');
    }
  });
});

server.listen(0, '127.0.0.1', () => {
  console.log(`listening on http://127.0.0.1:${(server.address() as AddressInfo).port}`);
});
process.on('SIGTERM', () => process.exit(0));
