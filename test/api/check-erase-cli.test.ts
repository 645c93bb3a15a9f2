/**
 * `waitlist check`, `waitlist erase --from` and the report's new numbers as the operator runs them
 * (real processes, a real DNS server), on both engines while the service runs: the JSON store with
 * its sidecar, and PostgreSQL. One seeded waitlist per engine, walked in order: the checks first,
 * then the erasures, each of which leaves what the next one expects.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Lang } from '../../api/contract/index.ts';
import { openBackend } from '../../api/sidecar/store/open-backend.ts';
import type { WaitlistStore } from '../../api/sidecar/store/waitlist-store.ts';
import { DNSMASQ_BINARY, startDnsmasq, type DnsServer } from '../../scripts/dnsmasq.ts';
import { postgresBinDir } from '../support/engines/postgres.ts';
import { describeWithEngine } from '../support/engines/require.ts';
import { usePostgres } from './support/backends.ts';
import { captureOutput, ROOT, runCommand, storedRecords, type Finished } from './support/cli.ts';
import { ZONE } from './support/dns-zone.ts';
import { testConfig } from './support/harness.ts';
import { seededSidecar } from './support/process.ts';

const NOW = '2026-11-25T12:30:00.000Z';
const hoursBefore = (hours: number) => new Date(Date.parse(NOW) - hours * 3_600_000).toISOString();

/** Members in sign-up order: address, language, first sign-up. The first is invited before the checks. */
const MEMBERS: [string, Lang, string][] = [
  ['invited@mailinator.com', 'en', hoursBefore(100)],
  ['ok@mx.test', 'en', hoursBefore(50)],
  ['a@a-only.test', 'de', hoursBefore(47)],
  ['eve@mailinator.com', 'en', hoursBefore(5)],
  ['bob@inbox.yopmail.com', 'de', hoursBefore(4.9)],
  ['n@null-mx.test', 'en', hoursBefore(0.5)],
  ['x@missing.test', 'en', hoursBefore(0.3)],
  ['r@refused.example', 'de', hoursBefore(0.1)],
];
const ALL = MEMBERS.map(([email]) => email);

async function seed(store: WaitlistStore): Promise<void> {
  for (const [email, lang, at] of MEMBERS) await store.upsert({ email, consent: true, lang }, 'json', at);
  await store.claimInvitees({ count: 1, filter: {}, at: NOW, messageIdDomain: 'waitlist.example' });
}

/**
 * `command` in a shell, as an operator types it, with the project's root as working directory and
 * the environment runCommand gives (Node's compile cache included: without it each node compiles anew).
 */
function shell(command: string, env: Record<string, string>): Promise<Finished> {
  const clean = { PATH: process.env.PATH, NODE_COMPILE_CACHE: process.env.NODE_COMPILE_CACHE, BASE_URL: 'https://waitlist.example' };
  const child = spawn('sh', ['-c', command], { cwd: ROOT, env: { ...clean, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  const output = captureOutput(child);
  return new Promise((done) => child.on('close', (code) => done({ code, stdout: output.stdout(), stderr: output.stderr() })));
}

interface Opened {
  env: Record<string, string>;
  dir: string;
  /** What the service logged (the JSON engine's sidecar); empty for PostgreSQL, where no service runs. */
  serviceLog(): string;
  close(): Promise<void>;
}

function cliSuite(open: (dns: DnsServer) => Promise<Opened>): void {
  let dns: DnsServer;
  let opened: Opened;
  const waitlist = (...args: string[]) => runCommand('scripts/waitlist.ts', args, opened.env);
  const emails = async () => (await storedRecords(opened.env)).map((record) => record.email);
  const outputs: Finished[] = [];
  const logged = (run: Finished) => (outputs.push(run), run);

  beforeAll(async () => {
    dns = await startDnsmasq(ZONE);
    opened = await open(dns);
  }, 60_000);
  afterAll(async () => {
    await opened?.close();
    await dns?.stop();
  });

  it('check --json: counts per verdict and per language over the members not yet invited', async () => {
    const run = logged(await waitlist('check', '--json'));
    expect(run, run.stderr).toMatchObject({ code: 0 });
    expect(JSON.parse(run.stdout)).toEqual({
      counts: { ok: 2, disposable: 2, no_mail: 2, unknown: 1 },
      byLang: { en: { ok: 1, disposable: 1, no_mail: 2, unknown: 0 }, de: { ok: 1, disposable: 1, no_mail: 0, unknown: 1 } },
    });
  });

  it('check: the same counts as a table on stdout; --lang counts only that language', async () => {
    const [table, german] = await Promise.all([waitlist('check'), waitlist('check', '--json', '--lang', 'de')].map((p) => p.then(logged)));
    expect(table.stdout).toMatch(/^no_mail\s+2\s+2\s+0\s/m);
    expect(JSON.parse(german.stdout).counts).toEqual({ ok: 1, disposable: 1, no_mail: 0, unknown: 1 });
  });

  it('check --list VERDICT: exactly those members, one address a line on stdout; never one already invited', async () => {
    const lists = await Promise.all(['ok', 'disposable', 'no_mail', 'unknown'].map((verdict) => waitlist('check', '--list', verdict).then(logged)));
    const sorted = (run: Finished) => run.stdout.trim().split('\n').sort();
    expect(lists.map(sorted)).toEqual([
      ['a@a-only.test', 'ok@mx.test'],
      ['bob@inbox.yopmail.com', 'eve@mailinator.com'],
      ['n@null-mx.test', 'x@missing.test'],
      ['r@refused.example'],
    ]);
  });

  it('report: members at throwaway domains and their share (from the list alone), and first sign-ups per hour over 48 hours', async () => {
    const [json, text] = await Promise.all([waitlist('report', '--format', 'json', '--now', NOW), waitlist('report', '--format', 'text', '--now', NOW)]);
    const report = JSON.parse(json.stdout);
    expect(report.throwaway).toEqual({ members: 3, percent: 37.5 });
    expect(report.perHour.hours).toHaveLength(48);
    expect(report.perHour.hours[0]).toBe('2026-11-23T13:00:00.000Z');
    const expected = new Array(48).fill(0);
    expected[0] = 1;
    expected[42] = 2;
    expected[47] = 3;
    expect(report.perHour.signups).toEqual(expected);
    expect(text.stdout).toMatch(/^At throwaway domains\s+3\s+37\.5 %/m);
    expect(text.stdout).toMatch(/^Per hour, the last 48 hours\s+6\s+[▁▂▃▄▅▆▇█]{48}$/m);
    for (const email of ALL) expect(json.stdout + text.stdout).not.toContain(email);
  });

  it('erase --from FILE without --yes and without a terminal: refused with the count, nothing erased', async () => {
    const file = join(opened.dir, 'refused.txt');
    await writeFile(file, 'ok@mx.test\n');
    const run = await waitlist('erase', '--from', file);
    expect(run.code).toBe(2);
    expect(run.stderr).toBe('error: 1 record(s) would be erased: confirm on a terminal, or add --yes\n');
    expect(await emails()).toEqual(ALL);
  });

  it('erase --from FILE: a non-address and an unknown member are named by line, the rest erased, exit 1', async () => {
    const file = join(opened.dir, 'mixed.txt');
    await writeFile(file, '# reviewed\n\nnot-an-address\n A@A-only.test \nnobody@mx.test\n');
    const run = await waitlist('erase', '--from', file, '--yes');
    expect(run.code).toBe(1);
    expect(run.stderr).toBe('line 3: "not-an-address": not an e-mail address\nline 5: "nobody@mx.test": no record of that address\n');
    expect(run.stdout).toMatch(/^Erased 1 record\(s\) from /);
    expect(await emails()).toEqual(ALL.filter((email) => email !== 'a@a-only.test'));
  });

  it('check --list disposable | erase --from - --yes: removes exactly those members', async () => {
    const run = await shell('node scripts/waitlist.ts check --list disposable | node scripts/waitlist.ts erase --from - --yes', opened.env);
    expect(run, run.stderr).toMatchObject({ code: 0 });
    expect(run.stdout).toMatch(/^Erased 2 record\(s\) from /);
    const gone = ['a@a-only.test', 'eve@mailinator.com', 'bob@inbox.yopmail.com'];
    expect(await emails()).toEqual(ALL.filter((email) => !gone.includes(email)));
  });

  it('no address in any log: neither the service nor the check commands wrote one outside stdout', () => {
    const logs = [opened.serviceLog(), ...outputs.map((run) => run.stderr)].join('\n');
    for (const email of ALL) expect(logs).not.toContain(email);
  });
}

describeWithEngine('dnsmasq', DNSMASQ_BINARY, 'waitlist check and erase --from', () => {
  describe('on the JSON store, its sidecar running', { timeout: 60_000 }, () => {
    cliSuite(async (dns) => {
      const { dir, sidecar, close } = await seededSidecar('check-json-', seed, { LOG_REQUESTS: 'true' });
      return { env: { DATA_DIR: dir, DNS_SERVERS: dns.address }, dir, serviceLog: () => sidecar.stdout() + sidecar.stderr(), close };
    });
  });

  describeWithEngine('PostgreSQL', postgresBinDir(), 'on PostgreSQL', () => {
    const engine = usePostgres();
    describe('check and erase', { timeout: 60_000 }, () => {
      cliSuite(async (dns) => {
        const url = await engine().createSchema();
        const backend = await openBackend({ ...testConfig(), DATABASE_URL: url });
        await seed(backend.store);
        await backend.close();
        const dir = await mkdtemp(join(tmpdir(), 'check-pg-'));
        return { env: { DATABASE_URL: url, DNS_SERVERS: dns.address }, dir, serviceLog: () => '', close: () => rm(dir, { recursive: true, force: true }) };
      });
    });
  });
});
