/**
 * `waitlist invite` against a real SMTP server (test/support/smtp.ts) on the JSON store: what
 * arrives (language, both parts, the headers, a DKIM signature that verifies), whom it picks (sign-up
 * order, filters, never an erased member, nobody twice), and how it refuses.
 */
import { generateKeyPairSync } from 'node:crypto';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { simpleParser } from 'mailparser';
import { dkimVerify } from 'mailauth';
import { describe, expect } from 'vitest';
import { JsonWaitlistStore } from '../../api/sidecar/store/json/waitlist-store.ts';
import type { SmtpHarness } from '../support/smtp.ts';
import { INVITE_URL, jsonLines, waitlist } from './support/invite.ts';
import { inviteTest } from './support/invite-workspace.ts';

const it = inviteTest('invite-cli-');

/** The command's environment on `dir`, sending through `smtp` once there is one. */
const envFor = (dir: string, smtp?: SmtpHarness) => (extra: Record<string, string> = {}) => ({ DATA_DIR: dir, ...(smtp ? { SMTP_URL: smtp.url } : {}), ...extra });

/** No address of the list in what a run logs (stderr). */
function expectNoAddress(stderr: string, emails: string[]): void {
  for (const email of emails) expect(stderr).not.toContain(email);
}

describe.concurrent('waitlist invite', { timeout: 60_000 }, () => {
  it('invite: en and de members get their language, HTML and text, List-Unsubscribe, Content-Language, a Message-ID on the operator domain, DKIM that verifies', async ({ ws }) => {
    const { dir, seed, records, smtpServer } = ws;
    const emails = await seed(2);
    const smtp = await smtpServer();
    const env = envFor(dir, smtp);
    const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const keyFile = join(dir, 'dkim.pem');
    await writeFile(keyFile, privateKey.export({ type: 'pkcs8', format: 'pem' }), { mode: 0o600 });
    const run = await waitlist(
      env({ MAIL_FROM: 'Nimbus <invite@mail.example.org>', DKIM_DOMAIN: 'mail.example.org', DKIM_SELECTOR: 'test', DKIM_PRIVATE_KEY_FILE: keyFile }),
      'invite', '--count', '5', '--yes', '--json', '--rate', '0',
    );
    expect(run.stderr).toContain('Sent 2, failed 0');
    expect(run.code).toBe(0);
    expectNoAddress(run.stderr, emails);
    const byTo = new Map(smtp.arrivals.map((a) => [a.to, a]));
    expect([...byTo.keys()].sort()).toEqual(emails.slice().sort());
    const en = byTo.get('m0@example.com')!;
    const de = byTo.get('m1@example.com')!;
    expect(en.parsed.subject).toBe('Your place is ready: welcome to Nimbus');
    expect(de.parsed.subject).toBe('Ihr Platz ist bereit: willkommen bei Nimbus');
    expect(en.parsed.text).toContain('you joined the Nimbus waitlist on 1 November 2026');
    expect(de.parsed.text).toContain('Sie haben sich am 1. November 2026 in die Warteliste');
    expect(en.parsed.text).toContain(`Open Nimbus (${INVITE_URL})`);
    expect(en.parsed.html).toContain('href="https://waitlist.example/privacy/"');
    expect(de.parsed.html).toContain('href="https://waitlist.example/de/datenschutz/"');
    expect(de.parsed.html).not.toMatch(/<img|<style|<link/);
    for (const [arrival, lang] of [[en, 'en'], [de, 'de']] as const) {
      const headers = arrival.raw.toString('utf8').split('\r\n\r\n')[0];
      expect(headers).toMatch(/^List-Unsubscribe: <mailto:hello@example\.org\?subject=unsubscribe>$/m);
      expect(headers).toMatch(new RegExp(`^Content-Language: ${lang}$`, 'm'));
      expect(headers).toMatch(/^Date: /m);
      expect(arrival.parsed.messageId).toMatch(/^<[0-9a-f-]{36}@mail\.example\.org>$/);
      expect(arrival.parsed.from?.value).toEqual([{ name: 'Nimbus', address: 'invite@mail.example.org' }]);
      const txt = `v=DKIM1; k=rsa; p=${publicKey.export({ type: 'spki', format: 'der' }).toString('base64')}`;
      const verified = await dkimVerify(arrival.raw, {
        resolver: async (name: string, type: string) => {
          if (name === 'test._domainkey.mail.example.org' && type === 'TXT') return [[txt]];
          throw Object.assign(new Error('not found'), { code: 'ENOTFOUND' });
        },
      });
      expect(verified.results.map((r) => r.status.result)).toEqual(['pass']);
    }
    const lines = jsonLines(run.stdout);
    expect(lines.at(-1)).toEqual({ summary: { sent: 2, failed: 0, unconfirmed: 0, notSent: 0, leftOut: { disposable: 0, no_mail: 0 } } });
    const stored = await records();
    for (const record of stored) {
      const line = lines.find((l) => l.email === record.email)!;
      expect(line).toMatchObject({ state: 'sent', lang: record.lang, messageId: record.invitation!.messageId });
      expect(record.invitation).toMatchObject({ state: 'sent' });
      expect(byTo.get(record.email)!.parsed.messageId).toBe(record.invitation!.messageId);
    }
    const show = await waitlist(env(), 'show', '--json', 'm0@example.com');
    expect(JSON.parse(show.stdout).invitation).toEqual(stored[0].invitation);
  });

  it('invite: the filters pick the next members in sign-up order; an erased member gets nothing; two runs in a row write to nobody twice', async ({ ws }) => {
    const { dir, seed, smtpServer } = ws;
    const emails = await seed(8);
    const smtp = await smtpServer();
    const env = envFor(dir, smtp);
    const first = await waitlist(env(), 'invite', '--count', '2', '--role', 'data', '--yes', '--json', '--rate', '0');
    expect(first.code).toBe(0);
    expect(jsonLines(first.stdout).filter((l) => l.state === 'sent').map((l) => l.email).sort()).toEqual(['m1@example.com', 'm2@example.com']);
    const lang = await waitlist(env(), 'invite', '--count', '1', '--lang', 'en', '--role', 'developer', '--yes', '--rate', '0');
    expect(lang.code).toBe(0);
    // Erased in the store itself (`waitlist erase` has tests of its own): what counts is that the next run skips the member.
    const store = await JsonWaitlistStore.open(dir);
    expect(await store.erase('m4@example.com')).toBe(true);
    await store.close();
    const rest = await waitlist(env(), 'invite', '--count', '100', '--yes', '--rate', '0');
    expect(rest.code).toBe(0);
    expectNoAddress(first.stderr + lang.stderr + rest.stderr, emails);
    const received = smtp.arrivals.map((a) => a.to);
    expect(received.slice(0, 3).sort()).toEqual(['m0@example.com', 'm1@example.com', 'm2@example.com']);
    expect(received.slice().sort()).toEqual(emails.filter((e) => e !== 'm4@example.com').sort());
    const again = await waitlist(env(), 'invite', '--count', '100', '--yes', '--rate', '0');
    expect(again.code).toBe(0);
    expect(again.stderr).toContain('Nobody left to invite');
    expect(smtp.arrivals).toHaveLength(7);
  });

  it('invite: --dry-run renders one .eml per message with --out and marks nobody; --to sends one sample per language and marks nobody', async ({ ws }) => {
    const { dir, seed, records, smtpServer } = ws;
    await seed(3);
    const out = join(dir, 'out');
    const dry = await waitlist({ DATA_DIR: dir }, 'invite', '--count', '5', '--dry-run', '--out', out);
    expect(dry.code).toBe(0);
    expect(dry.stderr).toContain('3 message(s) would go out (en 2, de 1)');
    expect((await readdir(out)).sort()).toEqual(['0001-en.eml', '0002-de.eml', '0003-en.eml']);
    const parsed = await simpleParser(await readFile(join(out, '0002-de.eml')));
    expect(parsed.subject).toBe('Ihr Platz ist bereit: willkommen bei Nimbus');
    expect(parsed.to && 'text' in parsed.to ? parsed.to.text : '').toBe('m1@example.com');
    const smtp = await smtpServer();
    const env = envFor(dir, smtp);
    const sample = await waitlist(env(), 'invite', '--to', 'Me@Operator.example');
    expect(sample.code).toBe(0);
    expect(smtp.arrivals.map((a) => [a.to, a.parsed.headers.get('content-language')])).toEqual([
      ['me@operator.example', 'en'],
      ['me@operator.example', 'de'],
    ]);
    expect((await records()).filter((r) => r.invitation)).toEqual([]);
  });

  it('invite: --help; bad flags exit 2; no SMTP_URL refuses in one line; no terminal and no --yes refuses; nothing is marked', async ({ ws }) => {
    const { dir, seed, records, smtpServer } = ws;
    await seed(2);
    const smtp = await smtpServer();
    const env = envFor(dir, smtp);
    const badArgs = [['--count', '0'], ['--count', '2', '--lang', 'fr'], ['--count', '2', '--bogus'], ['--count', '1', '--rate', 'fast']];
    // All at once: none of them gets as far as sending, and only the one without --yes opens the store.
    const [help, noSmtp, noYes, badUrl, ...bads] = await Promise.all([
      waitlist(envFor(dir)(), 'invite', '--help'),
      waitlist({ DATA_DIR: dir }, 'invite', '--count', '1', '--yes'),
      waitlist(env(), 'invite', '--count', '1'),
      waitlist(env({ SMTP_URL: 'smtp://user:s3cret@127.0.0.1:1?tls=maybe' }), 'invite', '--count', '1', '--yes'),
      ...badArgs.map((args) => waitlist(envFor(dir)(), 'invite', ...args)),
    ]);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('--resend-unconfirmed');
    badArgs.forEach((args, i) => {
      expect(bads[i].code, args.join(' ')).toBe(2);
      expect(bads[i].stderr, args.join(' ')).toMatch(/^error: /);
    });
    expect(noSmtp.code).toBe(1);
    expect(noSmtp.stderr.trim().split('\n')).toEqual([expect.stringContaining('set SMTP_URL')]);
    expect(noYes.code).toBe(2);
    expect(noYes.stderr).toContain('confirm on a terminal, or add --yes');
    expect(badUrl.code).toBe(1);
    expect(badUrl.stderr).toContain('SMTP_URL');
    expect(badUrl.stderr).not.toContain('s3cret');
    expect(smtp.arrivals).toEqual([]);
    expect((await records()).filter((r) => r.invitation)).toEqual([]);
  });

  it('invite: smtp:// requires STARTTLS unless the URL says otherwise; the refusal marks nobody', async ({ ws }) => {
    const { dir, seed, records, smtpServer } = ws;
    await seed(1);
    const smtp = await smtpServer();
    const env = envFor(dir, smtp);
    const run = await waitlist(env({ SMTP_URL: smtp.url.replace('?starttls=off', '') }), 'invite', '--count', '1', '--yes');
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('Stopped: the mail server refuses this session');
    expect(smtp.arrivals).toEqual([]);
    expect((await records())[0].invitation).toBeUndefined();
  });
});
