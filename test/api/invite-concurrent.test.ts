/**
 * Two `waitlist invite` runs at once (two operators, two hosts) never pick the same member:
 * on one PostgreSQL (claims skip rows another run holds), and on the JSON store through the running
 * sidecar, the file's single writer, while sign-ups keep arriving.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { API_PATHS } from '../../api/contract/index.ts';
import { loadConfig } from '../../api/config.ts';
import type { WaitlistRecord } from '../../api/sidecar/domain/record.ts';
import { openBackend } from '../../api/sidecar/store/open-backend.ts';
import { JsonWaitlistStore, STORE_FILE_NAME } from '../../api/sidecar/store/json/waitlist-store.ts';
import { postgresBinDir } from '../support/engines/postgres.ts';
import { describeWithEngine } from '../support/engines/require.ts';
import { send } from '../support/request.ts';
import { startSmtp, type SmtpHarness } from '../support/smtp.ts';
import { usePostgres } from './support/backends.ts';
import { jsonLines, seedMembers, waitlist } from './support/invite.ts';
import { startSidecar, type Running } from './support/process.ts';
import { jsonPost } from './support/requests.ts';

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** Each message answered 20 ms later, so that the two runs overlap. */
async function smtpServer(): Promise<SmtpHarness> {
  const server = await startSmtp({ answerDelayMs: 20 });
  cleanups.push(() => server.close());
  return server;
}

/** Both runs' sent lines, and every member exactly once at the server. */
function expectEachOnce(smtp: SmtpHarness, emails: string[], runs: { code: number | null; stdout: string; stderr: string }[]): void {
  for (const run of runs) expect(run.code, run.stderr).toBe(0);
  const sent = runs.flatMap((run) => jsonLines(run.stdout).filter((l) => l.state === 'sent').map((l) => l.email as string));
  expect(sent.slice().sort()).toEqual(emails.slice().sort());
  expect(smtp.arrivals.map((a) => a.to).sort()).toEqual(emails.slice().sort());
}

describeWithEngine('PostgreSQL', postgresBinDir(), 'waitlist invite, two runs at once (PostgreSQL)', () => {
  const engine = usePostgres();

  /** A database of its own with `n` members, none invited. */
  async function seededDatabase(n: number): Promise<{ url: string; emails: string[] }> {
    const url = await engine().createSchema();
    const backend = await openBackend({ ...loadConfig({}), DATABASE_URL: url });
    try {
      return { url, emails: await seedMembers(backend.store, n) };
    } finally {
      await backend.close();
    }
  }

  it('invite: two concurrent runs on one PostgreSQL write to every member exactly once', { timeout: 60_000 }, async () => {
    const { url, emails } = await seededDatabase(40);
    const smtp = await smtpServer();
    const env = { DATABASE_URL: url, SMTP_URL: smtp.url };
    const runs = await Promise.all([1, 2].map(() => waitlist(env, 'invite', '--count', '40', '--yes', '--json', '--rate', '0')));
    expectEachOnce(smtp, emails, runs);
    const again = await waitlist(env, 'invite', '--count', '40', '--yes', '--rate', '0');
    expect(again.stderr).toContain('Nobody left to invite');
  });

  it('invite: an operator command waits for its database connections whatever DATABASE_POOL_WAIT_MS says, so a run slowed on a busy host is not taken for an engine gone', { timeout: 60_000 }, async () => {
    const { url, emails } = await seededDatabase(30);
    const smtp = await smtpServer();
    // The sidecar's bound (1 ms) would fail every new connection; a command takes as long as a start.
    const run = await waitlist({ DATABASE_URL: url, SMTP_URL: smtp.url, DATABASE_POOL_SIZE: '1', DATABASE_POOL_WAIT_MS: '1' }, 'invite', '--count', '30', '--yes', '--json', '--rate', '0');
    expectEachOnce(smtp, emails, [run]);
  });
});

describe('waitlist invite, two runs at once (JSON store with its sidecar)', () => {
  it('invite: two concurrent runs through the sidecar write to every member exactly once; sign-ups during the runs are kept', { timeout: 60_000 }, async () => {
    const dir = await mkdtemp(join(tmpdir(), 'invite-both-'));
    cleanups.push(() => rm(dir, { recursive: true, force: true }));
    const store = await JsonWaitlistStore.open(dir);
    const emails = await seedMembers(store, 40);
    await store.close();
    const sidecar: Running = await startSidecar({ DATA_DIR: dir });
    cleanups.push(async () => {
      sidecar.child.kill('SIGTERM');
      await sidecar.exited;
    });
    const smtp = await smtpServer();
    const env = { DATA_DIR: dir, SMTP_URL: smtp.url };
    // 20 each: the 40 earliest in sign-up order are the seeded ones, whatever arrives meanwhile.
    const runs = Promise.all([1, 2].map(() => waitlist(env, 'invite', '--count', '20', '--yes', '--json', '--rate', '0')));
    const signups = await Promise.all(
      Array.from({ length: 20 }, (_, i) => send(sidecar.url, API_PATHS.waitlist, jsonPost({ email: `late${i}@example.com`, consent: true }))),
    );
    expect(signups.map((s) => s.status)).toEqual(Array(20).fill(200));
    expectEachOnce(smtp, emails, await runs);
    sidecar.child.kill('SIGTERM');
    await sidecar.exited;
    const records: WaitlistRecord[] = JSON.parse(await readFile(join(dir, STORE_FILE_NAME), 'utf8')).records;
    expect(records).toHaveLength(60);
    expect(records.filter((r) => r.invitation?.state === 'sent')).toHaveLength(40);
  });
});
