/** What the invite tests share: members seeded in sign-up order, and the command run as a real process. */
import { spawn, type ChildProcess } from 'node:child_process';
import type { WaitlistSignup } from '../../../api/contract/index.ts';
import type { WaitlistRecord } from '../../../api/sidecar/domain/record.ts';
import type { WaitlistStore } from '../../../api/sidecar/store/waitlist-store.ts';
import { captureOutput, ROOT, runCommand, type Finished } from './cli.ts';

export const INVITE_URL = 'https://app.example/start';
/**
 * A resolver nothing listens on: every lookup of the deliverability check fails at once, so each
 * member is `unknown` and invited, and no test asks the machine's DNS (example.com has a null MX).
 */
export const NO_DNS = '127.0.0.1:1';

/** n members one minute apart from 2026-11-01: m0 en developer, m1 de data, m2 en data, m3 de developer, …. */
export async function seedMembers(store: Pick<WaitlistStore, 'upsert'>, n: number, prefix = 'm'): Promise<string[]> {
  const emails: string[] = [];
  for (let i = 0; i < n; i++) {
    const signup: WaitlistSignup = { email: `${prefix}${i}@example.com`, consent: true, lang: i % 2 ? 'de' : 'en', role: i % 3 === 0 ? 'developer' : 'data' };
    await store.upsert(signup, 'json', new Date(Date.UTC(2026, 10, 1, 0, i)).toISOString());
    emails.push(signup.email);
  }
  return emails;
}

/** `node scripts/waitlist.ts ...args` with a clean environment (PATH, BASE_URL, INVITE_URL, NO_DNS and `env`). */
export function waitlist(env: Record<string, string>, ...args: string[]): Promise<Finished> {
  return runCommand('scripts/waitlist.ts', args, { INVITE_URL, DNS_SERVERS: NO_DNS, ...env });
}

/** The same, left running (to be killed). */
export function startWaitlist(env: Record<string, string>, ...args: string[]): { child: ChildProcess; stdout: () => string; stderr: () => string } {
  const child = spawn(process.execPath, ['scripts/waitlist.ts', ...args], {
    cwd: ROOT,
    env: { PATH: process.env.PATH, BASE_URL: 'https://waitlist.example', INVITE_URL, DNS_SERVERS: NO_DNS, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return { child, ...captureOutput(child) };
}

/** The JSON lines of a --json run. */
export function jsonLines(stdout: string): Record<string, unknown>[] {
  return stdout.trim().split('\n').filter(Boolean).map((line) => JSON.parse(line) as Record<string, unknown>);
}

export function invitationOf(records: WaitlistRecord[], email: string): WaitlistRecord['invitation'] {
  return records.find((r) => r.email === email)?.invitation;
}
