/**
 * `waitlist invite` leaves out the members a message cannot reach (the deliverability check against
 * a real DNS server), with a real SMTP server, on both engines while the service runs: the JSON
 * store with its sidecar (claims through the operator channel), and PostgreSQL.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openBackend } from '../../api/sidecar/store/open-backend.ts';
import type { WaitlistStore } from '../../api/sidecar/store/waitlist-store.ts';
import { DNSMASQ_BINARY, startDnsmasq, type DnsServer } from '../../scripts/dnsmasq.ts';
import { postgresBinDir } from '../support/engines/postgres.ts';
import { describeWithEngine } from '../support/engines/require.ts';
import { startSmtp, type SmtpHarness } from '../support/smtp.ts';
import { usePostgres } from './support/backends.ts';
import { storedRecords } from './support/cli.ts';
import { ZONE } from './support/dns-zone.ts';
import { testConfig } from './support/harness.ts';
import { jsonLines, waitlist } from './support/invite.ts';
import { seededSidecar } from './support/process.ts';

/** In sign-up order: two ok, two disposable, two no_mail, one unknown (test/api/support/dns-zone.ts). */
const MEMBERS = [
  'ok@mx.test',
  'eve@mailinator.com',
  'a@a-only.test',
  'n@null-mx.test',
  'bob@inbox.yopmail.com',
  'x@missing.test',
  'r@refused.example',
];
const LEFT_OUT = ['eve@mailinator.com', 'n@null-mx.test', 'bob@inbox.yopmail.com', 'x@missing.test'];
const REACHABLE = MEMBERS.filter((email) => !LEFT_OUT.includes(email));

async function seed(store: WaitlistStore): Promise<void> {
  for (const [i, email] of MEMBERS.entries()) {
    await store.upsert({ email, consent: true, lang: i % 2 ? 'de' : 'en' }, 'json', new Date(Date.UTC(2026, 10, 1, 0, i)).toISOString());
  }
}

interface Opened {
  env: Record<string, string>;
  close(): Promise<void>;
}

function inviteSuite(open: () => Promise<Opened>): void {
  let dns: DnsServer;
  let smtp: SmtpHarness;
  let opened: Opened;
  const run = (...args: string[]) => waitlist({ ...opened.env, DNS_SERVERS: dns.address, SMTP_URL: smtp.url }, 'invite', ...args);
  const records = () => storedRecords(opened.env);

  beforeAll(async () => {
    [dns, smtp] = await Promise.all([startDnsmasq(ZONE), startSmtp()]);
    opened = await open();
  }, 60_000);
  afterAll(async () => {
    await opened?.close();
    await Promise.all([dns?.stop(), smtp?.close()]);
  });

  it('invite --dry-run: the next members a message can reach, and the same left-out counts; nobody marked', async () => {
    const dry = await run('--count', '3', '--dry-run');
    expect(dry, dry.stderr).toMatchObject({ code: 0 });
    expect(dry.stderr).toContain('Dry run: 3 message(s) would go out (en 3, de 0); left out: 2 disposable, 2 no mail. Nobody was marked.');
    expect((await records()).filter((record) => record.invitation)).toEqual([]);
  });

  it('invite: writes to ok and unknown members only, marks no member it left out, and says so by reason', async () => {
    const sent = await run('--count', '3', '--yes', '--json', '--rate', '0');
    expect(sent, sent.stderr).toMatchObject({ code: 0 });
    expect(smtp.arrivals.map((arrival) => arrival.to).sort()).toEqual(REACHABLE.slice().sort());
    expect(sent.stderr).toMatch(/^Sent 3, failed 0, not sent 0, unconfirmed 0; left out: 2 disposable, 2 no mail \(/m);
    const lines = jsonLines(sent.stdout);
    expect(lines.filter((line) => line.state === 'left_out')).toEqual([
      { email: 'eve@mailinator.com', lang: 'de', state: 'left_out', verdict: 'disposable' },
      { email: 'n@null-mx.test', lang: 'de', state: 'left_out', verdict: 'no_mail' },
      { email: 'bob@inbox.yopmail.com', lang: 'en', state: 'left_out', verdict: 'disposable' },
      { email: 'x@missing.test', lang: 'de', state: 'left_out', verdict: 'no_mail' },
    ]);
    expect(lines.at(-1)).toEqual({ summary: { sent: 3, failed: 0, unconfirmed: 0, notSent: 0, leftOut: { disposable: 2, no_mail: 2 } } });
    const stored = await records();
    for (const email of LEFT_OUT) expect(stored.find((record) => record.email === email)).not.toHaveProperty('invitation');
    for (const email of REACHABLE) expect(stored.find((record) => record.email === email)!.invitation).toMatchObject({ state: 'sent' });
    for (const email of MEMBERS) expect(sent.stderr).not.toContain(email);
  });

  it('invite: with nobody a message can reach left, nobody is invited; --no-check sends to the others as before', async () => {
    const none = await run('--count', '5', '--yes', '--rate', '0');
    expect(none, none.stderr).toMatchObject({ code: 0 });
    expect(none.stderr).toContain('Nobody left to invite (never invited, matching the filters); left out: 2 disposable, 2 no mail.');
    expect(smtp.arrivals).toHaveLength(3);
    const unchecked = await run('--count', '5', '--yes', '--rate', '0', '--no-check');
    expect(unchecked, unchecked.stderr).toMatchObject({ code: 0 });
    expect(unchecked.stderr).toMatch(/^Sent 4, failed 0, not sent 0, unconfirmed 0 \(/m);
    expect(smtp.arrivals.slice(3).map((arrival) => arrival.to).sort()).toEqual(LEFT_OUT.slice().sort());
  });
}

describeWithEngine('dnsmasq', DNSMASQ_BINARY, 'waitlist invite with the deliverability check', () => {
  describe('on the JSON store, its sidecar running', { timeout: 60_000 }, () => {
    inviteSuite(async () => {
      const { dir, close } = await seededSidecar('invite-check-json-', seed);
      return { env: { DATA_DIR: dir }, close };
    });
  });

  describeWithEngine('PostgreSQL', postgresBinDir(), 'on PostgreSQL', () => {
    const engine = usePostgres();
    describe('invite', { timeout: 60_000 }, () => {
      inviteSuite(async () => {
        const url = await engine().createSchema();
        const backend = await openBackend({ ...testConfig(), DATABASE_URL: url });
        await seed(backend.store);
        await backend.close();
        return { env: { DATABASE_URL: url }, close: async () => {} };
      });
    });
  });
});
