/**
 * The benches' OAuth client with the statistics scope, and its access token: what the PostgreSQL
 * bench and the sidecar profile poll the statistics with.
 */
import pg from 'pg';
import { API_PATHS, STATS_SCOPE } from '../../api/contract/index.ts';
import { hashSecret, type ClientRecord } from '../../api/sidecar/domain/clients.ts';
import { PostgresClients } from '../../api/sidecar/store/postgres/clients.ts';

const CLIENT = { id: 'bench-client', secret: 'bench-secret-that-is-long-enough-0123456789' };

/** The client as a store keeps it (the JSON store's clients file, or PostgreSQL). */
export async function benchClient(): Promise<ClientRecord> {
  return { id: CLIENT.id, name: 'bench', createdAt: new Date().toISOString(), scopes: [STATS_SCOPE], secretHash: await hashSecret(CLIENT.secret) };
}

/** The client added to the database at `url`. */
export async function addBenchClient(url: string): Promise<void> {
  const pool = new pg.Pool({ connectionString: url, max: 1 });
  try {
    await new PostgresClients(pool).create(await benchClient());
  } finally {
    await pool.end();
  }
}

/** A token for the client from the sidecar at `url` (client credentials, HTTP Basic). */
export async function accessToken(url: string): Promise<string> {
  const res = await fetch(new URL(API_PATHS.token, url), {
    method: 'POST',
    headers: { authorization: `Basic ${Buffer.from(`${CLIENT.id}:${CLIENT.secret}`).toString('base64')}`, 'content-type': 'application/x-www-form-urlencoded' },
    body: 'grant_type=client_credentials',
  });
  if (res.status !== 200) throw new Error(`token request answered ${res.status}`);
  return ((await res.json()) as { access_token: string }).access_token;
}
