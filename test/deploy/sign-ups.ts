/**
 * Sign-ups against a running sidecar for the backup tests (JSON data directory and PostgreSQL):
 * one sign-up, a flow of them while a backup runs, and the total the restored service reports.
 */
import { expect } from 'vitest';
import { API_PATHS } from '../../api/contract/paths.ts';

export interface Client {
  client_id: string;
  client_secret: string;
}

export async function signUp(url: string, email: string): Promise<number> {
  const res = await fetch(new URL(API_PATHS.waitlist, url), { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email, consent: true }) });
  await res.arrayBuffer();
  return res.status;
}

/** The waitlist total from the statistics endpoint, with a token of `client`. */
export async function totalSignUps(url: string, client: Client): Promise<number> {
  const basic = Buffer.from(`${client.client_id}:${client.client_secret}`).toString('base64');
  const token = await fetch(new URL(API_PATHS.token, url), { method: 'POST', headers: { authorization: `Basic ${basic}`, 'content-type': 'application/x-www-form-urlencoded' }, body: 'grant_type=client_credentials' });
  expect(token.status).toBe(200);
  const { access_token } = (await token.json()) as { access_token: string };
  const stats = await fetch(new URL(API_PATHS.stats, url), { headers: { authorization: `Bearer ${access_token}` } });
  expect(stats.status).toBe(200);
  return ((await stats.json()) as { total: number }).total;
}

/** Clients signing up in parallel at most, so at most this many are in flight when the flow stops. */
export const FLOW_CLIENTS = 4;

/**
 * `FLOW_CLIENTS` clients signing up back to back until `stop()`; `acknowledged()` counts the 200s
 * as they come. Resolves once more than 20 are acknowledged, so the flow is under way.
 */
export async function startSignUpFlow(url: string): Promise<{ acknowledged: () => number; stop: () => Promise<void> }> {
  let acknowledged = 0;
  let flowing = true;
  let n = 0;
  const flow = Promise.all(Array.from({ length: FLOW_CLIENTS }, async () => {
    while (flowing) if ((await signUp(url, `flow${n++}@example.com`)) === 200) acknowledged += 1;
  }));
  await expect.poll(() => acknowledged, { timeout: 10_000 }).toBeGreaterThan(20);
  return {
    acknowledged: () => acknowledged,
    stop: async () => {
      flowing = false;
      await flow;
    },
  };
}
