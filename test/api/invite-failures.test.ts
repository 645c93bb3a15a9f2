/**
 * `waitlist invite` when things go wrong, against a real SMTP server: a 4xx is retried, a 5xx
 * fails that member only, a server that dies stops the run, a SIGKILL mid-run. Under each, no
 * member gets two messages, and every member claimed but never confirmed is reported by the next
 * run, never skipped silently and never re-sent unless --resend-unconfirmed says so.
 */
import { describe, expect } from 'vitest';
import type { WaitlistRecord } from '../../api/sidecar/domain/record.ts';
import { SidecarChannel } from '../../api/sidecar/operator/client.ts';
import { operatorSocketPath } from '../../api/sidecar/operator/protocol.ts';
import type { SmtpHarness } from '../support/smtp.ts';
import { startSidecar } from './support/process.ts';
import { jsonLines, startWaitlist, waitlist } from './support/invite.ts';
import { inviteTest } from './support/invite-workspace.ts';

const it = inviteTest('invite-fail-');

/** The invite command on `dir`, sending through `server`. */
const inviteOn = (dir: string) => (server: SmtpHarness, ...args: string[]) => waitlist({ DATA_DIR: dir, SMTP_URL: server.url }, 'invite', '--yes', '--rate', '0', ...args);
/** Who is claimed but not confirmed. */
const claimedIn = (records: () => Promise<WaitlistRecord[]>) => async () => (await records()).filter((r) => r.invitation?.state === 'claimed').map((r) => r.email).sort();

/** Every member got at most one message over all servers; returns who got one. */
function atMostOnce(...all: SmtpHarness[]): string[] {
  const received = all.flatMap((s) => s.arrivals.map((a) => a.to));
  expect(received.filter((e, i) => received.indexOf(e) !== i), 'members with two messages').toEqual([]);
  return received;
}

describe.concurrent('waitlist invite under failures', { timeout: 60_000 }, () => {
  it('invite: a 4xx is retried and then accepted; a 5xx for one recipient marks that member failed with the reply and the run goes on', async ({ ws }) => {
    const { dir, seed, records, smtpServer } = ws;
    const invite = inviteOn(dir);
    const emails = await seed(5);
    const server = await smtpServer({
      rcpt: (address, count) => {
        if (address === 'm1@example.com' && count === 1) return { code: 451, message: '4.7.1 Try again later' };
        if (address === 'm3@example.com') return { code: 550, message: '5.1.1 <m3@example.com>: mailbox unavailable' };
        return 'accept';
      },
    });
    const run = await invite(server, '--count', '10');
    expect(run.code).toBe(0);
    expect(run.stderr).toContain('Sent 4, failed 1');
    expect(server.arrivals.map((a) => a.to).sort()).toEqual(emails.filter((e) => e !== 'm3@example.com').sort());
    const stored = await records();
    expect(stored.find((r) => r.email === 'm1@example.com')!.invitation!.state).toBe('sent');
    expect(stored.find((r) => r.email === 'm3@example.com')!.invitation).toMatchObject({ state: 'failed', error: expect.stringContaining('550 5.1.1') });
    // The reply quoted the address: the log shows it redacted.
    for (const email of emails) expect(run.stderr).not.toContain(email);
    const show = await waitlist({ DATA_DIR: dir }, 'show', 'm3@example.com');
    expect(show.stdout).toContain('mailbox unavailable');
    const again = await invite(server, '--count', '10');
    expect(again.stderr).toContain('Nobody left to invite');
    atMostOnce(server);
  });

  it('invite: the server gone mid-run stops the run and says what was done; the next run reports the unconfirmed and continues', async ({ ws }) => {
    const { dir, seed, records, smtpServer } = ws;
    const invite = inviteOn(dir);
    const claimedEmails = claimedIn(records);
    const emails = await seed(12);
    const dying = await smtpServer({ dieDuringMessage: 4 });
    const first = await invite(dying, '--count', '100');
    expect(first.code).toBe(1);
    expect(first.stderr).toMatch(/Sent \d+, failed 0, not sent \d+, unconfirmed [1-9]\d* /);
    expect(first.stderr).toContain('Stopped: the connection to the mail server was lost during a message');
    const unconfirmed = await claimedEmails();
    expect(unconfirmed.length).toBeGreaterThan(0);
    const healthy = await smtpServer();
    const second = await invite(healthy, '--count', '100', '--json');
    expect(second.code).toBe(0);
    expect(second.stderr).toContain(`${unconfirmed.length} member(s) were claimed by an earlier run`);
    const lines = jsonLines(second.stdout);
    expect(lines.filter((l) => l.earlierRun).map((l) => l.email).sort()).toEqual(unconfirmed);
    const received = atMostOnce(dying, healthy);
    // Nobody skipped silently: each member has a message or is reported as unconfirmed.
    expect([...received, ...unconfirmed].sort()).toEqual(emails.slice().sort());
  });

  it('invite: SIGKILL mid-run, then a second run: nobody gets two messages, every claimed-not-confirmed member is reported, --resend-unconfirmed sends to them', async ({ ws }) => {
    const { dir, seed, records, smtpServer } = ws;
    const invite = inviteOn(dir);
    const claimedEmails = claimedIn(records);
    const emails = await seed(10);
    const hanging = await smtpServer({ holdFrom: 3 });
    const killed = startWaitlist({ DATA_DIR: dir, SMTP_URL: hanging.url }, 'invite', '--yes', '--rate', '0', '--count', '100');
    const exited = new Promise((done) => killed.child.on('exit', done));
    // Two answered, then four connections each hold a message the server never answers.
    await hanging.waitFor(6);
    killed.child.kill('SIGKILL');
    await exited;
    const stored = await records();
    const sent = stored.filter((r) => r.invitation?.state === 'sent').map((r) => r.email);
    const unconfirmed = await claimedEmails();
    // Two were answered; their confirmations may or may not have been durable at the kill.
    expect(sent.length).toBeLessThanOrEqual(2);
    expect(unconfirmed.length).toBeGreaterThanOrEqual(4);
    const healthy = await smtpServer();
    const second = await invite(healthy, '--count', '100', '--json');
    expect(second.code).toBe(0);
    expect(second.stderr).toContain(`${unconfirmed.length} member(s) were claimed by an earlier run that stopped`);
    expect(second.stderr).toContain('--resend-unconfirmed');
    for (const email of emails) expect(second.stderr).not.toContain(email);
    expect(jsonLines(second.stdout).filter((l) => l.earlierRun).map((l) => l.email).sort()).toEqual(unconfirmed);
    const received = atMostOnce(hanging, healthy);
    expect([...new Set([...received, ...unconfirmed])].sort()).toEqual(emails.slice().sort());
    expect([...sent, ...unconfirmed].length + healthy.arrivals.length).toBe(emails.length);
    expect(healthy.arrivals.map((a) => a.to).filter((e) => unconfirmed.includes(e))).toEqual([]);
    const resend = await invite(healthy, '--count', '100', '--resend-unconfirmed');
    expect(resend.code).toBe(0);
    expect(resend.stderr).toContain(`Sent ${unconfirmed.length},`);
    expect(await claimedEmails()).toEqual([]);
    expect((await records()).every((r) => r.invitation?.state === 'sent')).toBe(true);
  });
});

// Alone, after the others: the erase has to land while the last messages wait on the slow server,
// so no other case of this file competes with it for the CPU.
describe('waitlist invite under failures', { timeout: 60_000 }, () => {
  it('invite: a member erased while the run holds them in its batch is not written to', async ({ ws }) => {
    const { dir, seed, smtpServer } = ws;
    const invite = inviteOn(dir);
    const emails = await seed(10);
    const sidecar = await startSidecar({ DATA_DIR: dir });
    try {
      // Four connections, each message answered a second later: the last member's turn comes seconds after the first.
      const slow = await smtpServer({ answerDelayMs: 1000 });
      const run = invite(slow, '--count', '10', '--json');
      await slow.waitFor(1);
      expect(await new SidecarChannel(operatorSocketPath(dir)).erase('m9@example.com')).toBe(true);
      const done = await run;
      expect(done.code).toBe(0);
      expect(slow.arrivals.map((a) => a.to).sort()).toEqual(emails.filter((e) => e !== 'm9@example.com').sort());
      expect(jsonLines(done.stdout).find((l) => l.email === 'm9@example.com')).toMatchObject({ state: 'not_sent' });
    } finally {
      sidecar.child.kill('SIGTERM');
      await sidecar.exited;
    }
  });
});
