/**
 * The operator's waitlist command (`node scripts/waitlist.ts`): export, count, show and erase on a
 * temp DATA_DIR, run as a real process with a clean environment, alone and next to a running
 * sidecar (reached over its operator socket), and its argument parsing.
 */
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it as base } from 'vitest';
import { API_PATHS, type WaitlistSignup } from '../../api/contract/index.ts';
import { CSV_COLUMNS } from '../../api/sidecar/domain/record-export.ts';
import type { Channel } from '../../api/sidecar/domain/record.ts';
import type { WaitlistRecord } from '../../api/sidecar/domain/record.ts';
import { operatorSocketPath } from '../../api/sidecar/operator/protocol.ts';
import { dataDirLockPath } from '../../api/sidecar/store/lock.ts';
import { JsonWaitlistStore, STORE_FILE_NAME } from '../../api/sidecar/store/json/waitlist-store.ts';
import { send } from '../support/request.ts';
import { runCommand, type Finished } from './support/cli.ts';
import { startSidecar, type Running } from './support/process.ts';
import { jsonPost } from './support/requests.ts';

/** One test's own DATA_DIR and what runs on it: the cases share nothing, so they run side by side. */
interface Workspace {
  dir: string;
  dataFile: string;
  /** Runs the command with only PATH, BASE_URL and DATA_DIR set. */
  waitlist(...args: string[]): Promise<Finished>;
  seed(signups: [WaitlistSignup, Channel, string][]): Promise<void>;
  /** A sidecar on this test's DATA_DIR, over TCP so the test can fetch from it. */
  sidecar(): Promise<Running>;
  storedEmails(): Promise<string[]>;
}

const it = base.extend<{ cli: Workspace }>({
  cli: async ({}, use) => {
    const dir = await mkdtemp(join(tmpdir(), 'waitlist-cli-'));
    const dataFile = join(dir, STORE_FILE_NAME);
    const running: Running[] = [];
    await use({
      dir,
      dataFile,
      waitlist: (...args) => runCommand('scripts/waitlist.ts', args, { DATA_DIR: dir }),
      async seed(signups) {
        const store = await JsonWaitlistStore.open(dir);
        for (const [signup, channel, at] of signups) await store.upsert(signup, channel, at);
        await store.close();
      },
      async sidecar() {
        const started = await startSidecar({ DATA_DIR: dir, SIDECAR_LISTEN: 'tcp' });
        running.push(started);
        return started;
      },
      storedEmails: async () => JSON.parse(await readFile(dataFile, 'utf8')).records.map((r: { email: string }) => r.email),
    });
    for (const r of running) {
      if (r.child.exitCode === null && r.child.signalCode === null) r.child.kill('SIGKILL');
      await r.exited;
    }
    await rm(dir, { recursive: true, force: true });
  },
});

const FOO: [WaitlistSignup, Channel, string] = [
  { email: 'foo@example.com', consent: true, role: 'data', building: 'rag', source: 'hero', lang: 'de' },
  'form',
  '2026-11-20T10:00:00.000Z',
];
const BAR: [WaitlistSignup, Channel, string] = [{ email: 'bar@example.com', consent: true }, 'json', '2026-11-21T10:00:00.000Z'];
const IDN: [WaitlistSignup, Channel, string] = [{ email: 'a@xn--mnchen-3ya.de', consent: true }, 'json', '2026-11-22T10:00:00.000Z'];

// Each case starts node processes; on a busy 2-core machine one start can take seconds.
describe.concurrent('waitlist command', { timeout: 60_000 }, () => {
  /**
   * One seeded list read by the export cases, each format exported once: FOO and BAR as signed up,
   * then records whose stored values a spreadsheet must not misread (a comma and quotes; cells
   * that start like a formula).
   */
  describe('export of one seeded list', () => {
    let stored: WaitlistRecord[];
    let jsonl: Finished;
    let jsonlFlag: Finished;
    let csv: Finished;
    let cleanup: () => Promise<void>;
    beforeAll(async () => {
      const dir = await mkdtemp(join(tmpdir(), 'waitlist-cli-export-'));
      cleanup = () => rm(dir, { recursive: true, force: true });
      const dataFile = join(dir, STORE_FILE_NAME);
      const store = await JsonWaitlistStore.open(dir);
      const later = (minutes: number) => new Date(Date.parse(BAR[2]) + minutes * 60_000).toISOString();
      for (const [signup, channel, at] of [FOO, BAR]) await store.upsert(signup, channel, at);
      await store.upsert({ email: 'quoted@example.com', consent: true }, 'json', later(1));
      await store.upsert({ email: '-2+3@example.com', consent: true }, 'json', later(2));
      await store.upsert({ email: '+1@example.com', consent: true }, 'json', later(3));
      await store.close();
      const document = JSON.parse(await readFile(dataFile, 'utf8'));
      document.records[2].consent.textVersion = '2026-11-01, "draft"';
      document.records[3].consent.textVersion = '=HYPERLINK("http://evil.example")';
      document.records[4].consent.textVersion = '\t+1';
      await writeFile(dataFile, JSON.stringify(document));
      stored = document.records;
      const waitlist = (...args: string[]) => runCommand('scripts/waitlist.ts', args, { DATA_DIR: dir });
      [jsonl, jsonlFlag, csv] = await Promise.all([waitlist('export'), waitlist('export', '--format=jsonl'), waitlist('export', '--format=csv')]);
    }, 60_000);
    afterAll(() => cleanup?.());
    const jsonLines = () => jsonl.stdout.trimEnd().split('\n').map((line) => JSON.parse(line));
    const csvLines = () => csv.stdout.split('\r\n');

    it('export: JSON lines by default, every field of every record exactly as stored, in sign-up order', () => {
      expect(jsonl.code).toBe(0);
      const lines = jsonLines();
      expect(lines).toEqual(stored);
      expect(lines[0]).toMatchObject({ email: 'foo@example.com', role: 'data', building: 'rag', source: 'hero', lang: 'de', consent: { form: 'hero', channel: 'form', lang: 'de' } });
      expect(jsonlFlag.stdout).toBe(jsonl.stdout);
    });

    it('export --format=csv: RFC 4180 with a header of every field (consent flattened), empty cells for unanswered questions', () => {
      expect(csv.code).toBe(0);
      const [header, foo, bar] = csvLines();
      expect(header).toBe(
        'email,createdAt,consentAt,updatedAt,lang,role,building,source,consent.form,consent.channel,consent.lang,consent.textVersion,' +
          'invitation.state,invitation.claimedAt,invitation.invitedAt,invitation.messageId,invitation.error',
      );
      expect(CSV_COLUMNS.join(',')).toBe(header);
      const version = stored[0].consent.textVersion;
      // Never invited: the five invitation cells are empty.
      expect(foo).toBe(`foo@example.com,${FOO[2]},${FOO[2]},${FOO[2]},de,data,rag,hero,hero,form,de,${version},,,,,`);
      expect(bar).toBe(`bar@example.com,${BAR[2]},${BAR[2]},${BAR[2]},en,,,,api,json,en,${version},,,,,`);
      // A line per record and the header, each ended by CRLF.
      expect(csvLines()).toHaveLength(stored.length + 2);
      expect(csvLines().at(-1)).toBe('');
    });

    it('export --format=csv: a value with a comma or a double quote is quoted, quotes doubled', () => {
      expect(csvLines()[3]).toMatch(/^quoted@example\.com,.*,"2026-11-01, ""draft""",,,,,$/);
    });

    it('export --format csv: a cell that starts with = + - @ TAB or CR gets a leading quote (OWASP CSV injection); JSON lines stay exact', () => {
      const [first, second] = csvLines().slice(4);
      expect(first.startsWith("'-2+3@example.com,")).toBe(true);
      expect(first.endsWith(`,"'=HYPERLINK(""http://evil.example"")",,,,,`)).toBe(true);
      expect(second.startsWith("'+1@example.com,")).toBe(true);
      expect(second.endsWith(",'\t+1,,,,,")).toBe(true);
      expect(jsonLines().slice(3)).toEqual(stored.slice(3));
      expect(jsonLines()[3].consent.textVersion).toBe('=HYPERLINK("http://evil.example")');
    });
  });

  it('count: prints the number of records', async ({ cli }) => {
    const { waitlist, seed } = cli;
    await seed([FOO, BAR, IDN]);
    const run = await waitlist('count');
    expect(run).toMatchObject({ code: 0, stdout: '3\n' });
  });

  it('export, count and show run while the sidecar serves: through its operator socket, they see its latest sign-up', async ({ cli }) => {
    const { waitlist, sidecar } = cli;
    const live = await sidecar();
    expect((await send(live.url, API_PATHS.waitlist, jsonPost({ email: 'Live@Example.com', consent: true }))).status).toBe(200);
    expect((await waitlist('count')).stdout).toBe('1\n');
    expect(JSON.parse((await waitlist('export')).stdout).email).toBe('live@example.com');
    const shown = await waitlist('show', 'LIVE@example.com');
    expect(shown.code).toBe(0);
    expect(JSON.parse(shown.stdout)).toMatchObject({ email: 'live@example.com', lang: 'en' });
    expect((await send(live.url, API_PATHS.status)).status).toBe(200);
  });

  it('show: the record as indented JSON, every field exactly as stored; --json on one line; unknown address -> exit 3', async ({ cli }) => {
    const { dataFile, waitlist, seed } = cli;
    await seed([FOO, BAR]);
    const stored = JSON.parse(await readFile(dataFile, 'utf8')).records[0];
    const run = await waitlist('show', ' Foo@Example.COM');
    expect(run.code).toBe(0);
    expect(run.stdout.split('\n').length).toBeGreaterThan(10);
    expect(JSON.parse(run.stdout)).toEqual(stored);
    const oneLine = (await waitlist('show', '--json', 'foo@example.com')).stdout;
    expect(oneLine.split('\n')).toHaveLength(2);
    expect(JSON.parse(oneLine)).toEqual(stored);
    const missing = await waitlist('show', 'nobody@example.com');
    expect(missing.code).toBe(3);
    expect(missing.stderr).toContain('No record of "nobody@example.com"');
    expect(missing.stdout + missing.stderr).not.toContain('bar@example.com');
  });

  it('count --json: {"count": N}', async ({ cli }) => {
    const { waitlist, seed } = cli;
    await seed([FOO, BAR, IDN]);
    expect(JSON.parse((await waitlist('count', '--json')).stdout)).toEqual({ count: 3 });
  });

  it('export --lang and --since filter (both spellings of a flag work); a bad value is a usage error', async ({ cli }) => {
    const { waitlist, seed } = cli;
    await seed([FOO, BAR, IDN]);
    const emails = (run: { stdout: string }) => run.stdout.trimEnd().split('\n').filter(Boolean).map((line) => JSON.parse(line).email);
    // Every run only reads the store: they run at once.
    const bad = [['--lang', 'fr'], ['--since', 'yesterday'], ['--format', 'xml']];
    const [de, en, since, sinceEn, csv, ...runs] = await Promise.all([
      waitlist('export', '--lang', 'de'),
      waitlist('export', '--lang=en'),
      waitlist('export', '--since', '2026-11-21'),
      waitlist('export', '--since=2026-11-21T10:00:00.001Z', '--lang', 'en'),
      waitlist('export', '--format', 'csv', '--lang', 'de'),
      ...bad.map((args) => waitlist('export', ...args)),
    ]);
    expect(emails(de)).toEqual(['foo@example.com']);
    expect(emails(en)).toEqual(['bar@example.com', 'a@xn--mnchen-3ya.de']);
    expect(emails(since)).toEqual(['bar@example.com', 'a@xn--mnchen-3ya.de']);
    expect(emails(sinceEn)).toEqual(['a@xn--mnchen-3ya.de']);
    expect(csv.stdout.split('\r\n').filter(Boolean)).toHaveLength(2);
    runs.forEach((run, i) => {
      expect(run.code).toBe(2);
      expect(run.stderr).toContain(bad[i][0]);
    });
  }, 60_000);

  for (const [typed, stored] of [
    ['Foo@Example.COM ', 'foo@example.com'],
    ['A@MÜNCHEN.de', 'a@xn--mnchen-3ya.de'],
  ]) {
    it(`erase: ${JSON.stringify(typed)} finds ${stored} (the sidecar's normalisation); only that record goes, durably`, async ({ cli }) => {
      const { dir, dataFile, waitlist, seed, storedEmails } = cli;
      await seed([FOO, BAR, IDN]);
      const run = await waitlist('erase', typed);
      expect(run.code).toBe(0);
      expect(run.stdout).toContain('Erased');
      expect(run.stdout).toContain(JSON.stringify(typed));
      expect(await storedEmails()).toEqual(['foo@example.com', 'bar@example.com', 'a@xn--mnchen-3ya.de'].filter((e) => e !== stored));
      // No address from the data is printed; only what the operator typed, and its normalised form.
      for (const other of ['foo@example.com', 'bar@example.com', 'a@xn--mnchen-3ya.de'].filter((e) => e !== stored)) {
        expect(run.stdout + run.stderr).not.toContain(other);
      }
      expect((await stat(dataFile)).mode & 0o777).toBe(0o600);
      await expect(stat(dataDirLockPath(dir))).rejects.toThrow();
    });
  }

  it('erase: an address without a record -> exit 3, "No record", the file unchanged to the byte', async ({ cli }) => {
    const { dataFile, waitlist, seed } = cli;
    await seed([FOO]);
    const before = await readFile(dataFile);
    const run = await waitlist('erase', 'nobody@example.com');
    expect(run.code).toBe(3);
    expect(run.stdout).toContain('No record of "nobody@example.com"');
    expect(await readFile(dataFile)).toEqual(before);
  });

  it('erase while the sidecar runs: done through it (exit 0), durably; its later sign-ups land and the record does not come back', async ({ cli }) => {
    const { dir, waitlist, sidecar, storedEmails } = cli;
    const live = await sidecar();
    await send(live.url, API_PATHS.waitlist, jsonPost({ email: 'gone@example.com', consent: true }));
    await send(live.url, API_PATHS.waitlist, jsonPost({ email: 'stays@example.com', consent: true }));
    expect((await stat(operatorSocketPath(dir))).mode & 0o777).toBe(0o600);

    const run = await waitlist('erase', 'Gone@example.com');
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('Erased the record of "Gone@example.com"');
    expect(await storedEmails()).toEqual(['stays@example.com']);
    expect((await waitlist('erase', 'gone@example.com')).code).toBe(3);

    expect((await send(live.url, API_PATHS.waitlist, jsonPost({ email: 'later@example.com', consent: true }))).status).toBe(200);
    expect(await storedEmails()).toEqual(['stays@example.com', 'later@example.com']);
    live.child.kill('SIGTERM');
    await live.exited;
    await expect(stat(operatorSocketPath(dir))).rejects.toThrow();
    expect(await storedEmails()).toEqual(['stays@example.com', 'later@example.com']);
  });

  it('erase with the data directory held by a process that does not answer on the operator socket -> exit 1 naming it, nothing changed', async ({ cli }) => {
    const { dir, dataFile, waitlist, seed } = cli;
    await seed([FOO]);
    const before = await readFile(dataFile);
    // A live process that holds the lock but serves no socket (an older sidecar, another command).
    await writeFile(dataDirLockPath(dir), `${process.pid}\n`);
    const run = await waitlist('erase', 'foo@example.com');
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(`in use by process ${process.pid}`);
    expect(run.stderr).toContain('Nothing was changed');
    expect(await readFile(dataFile)).toEqual(before);
  });

  it('erase: a corrupt data file -> exit 1 naming it, left untouched, the lock released', async ({ cli }) => {
    const { dir, dataFile, waitlist } = cli;
    const corrupt = '{"format":"waitlist-store","version":1,"records":[{"email":"half';
    await writeFile(dataFile, corrupt);
    const run = await waitlist('erase', 'half@example.com');
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(dataFile);
    expect(await readFile(dataFile, 'utf8')).toBe(corrupt);
    await expect(stat(dataDirLockPath(dir))).rejects.toThrow();
  });

  it('export, count, erase: no data file (wrong DATA_DIR?) -> exit 1 naming the path, nothing created', async ({ cli }) => {
    const { dataFile, waitlist } = cli;
    const runs = await Promise.all([['export'], ['count'], ['erase', 'a@example.com']].map((args) => waitlist(...args)));
    for (const run of runs) {
      expect(run.code).toBe(1);
      expect(run.stderr).toContain(dataFile);
    }
    await expect(stat(dataFile)).rejects.toThrow();
  });

  it('usage: no or unknown command, unknown flag or value, missing, blank or extra arguments -> exit 2 naming the problem, with the usage', async ({ cli }) => {
    const { waitlist } = cli;
    const cases: [string[], string][] = [
      [[], 'missing command'],
      [['frobnicate'], 'unknown command "frobnicate"'],
      [['export', '--format=xml'], '--format must be one of jsonl, csv'],
      [['export', '--format'], "'--format"],
      [['export', 'csv'], 'unexpected argument "csv"'],
      [['count', 'extra'], 'unexpected argument "extra"'],
      [['count', '--verbose'], "'--verbose'"],
      [['show'], 'missing EMAIL'],
      [['erase'], 'missing EMAIL'],
      [['erase', ' '], 'EMAIL is empty'],
      [['erase', 'a@example.com', 'b@example.com'], 'unexpected argument "b@example.com"'],
    ];
    const runs = await Promise.all(cases.map(([args]) => waitlist(...args)));
    runs.forEach((run, i) => {
      expect([run.code, run.stdout]).toEqual([2, '']);
      expect(run.stderr).toContain(cases[i][1]);
      expect(run.stderr).toContain('npm run waitlist --');
    });
  }, 60_000);

  it('--help: on the command and on every subcommand -> the usage on stdout, exit 0, nothing touched', async ({ cli }) => {
    const { dataFile, waitlist } = cli;
    const cases = [['--help'], ['-h'], ['help'], ...['export', 'count', 'show', 'erase'].map((command) => [command, '--help'])];
    const runs = await Promise.all(cases.map((args) => waitlist(...args)));
    runs.forEach((run, i) => {
      expect([run.code, run.stderr]).toEqual([0, '']);
      expect(run.stdout).toContain(`npm run waitlist -- ${cases[i].length === 2 ? cases[i][0] : 'export'}`);
    });
    await expect(stat(dataFile)).rejects.toThrow();
  }, 60_000);

  it('an address that starts with "-" is passed after "--"', async ({ cli }) => {
    const { waitlist, seed, storedEmails } = cli;
    await seed([[{ email: '-x@example.com', consent: true }, 'json', BAR[2]]]);
    expect((await waitlist('show', '-x@example.com')).code).toBe(2);
    expect((await waitlist('erase', '--', '-x@example.com')).code).toBe(0);
    expect(await storedEmails()).toEqual([]);
  });

  it('store erase: across serialisation chunks the file keeps every other record in order, and later sign-ups still land', async ({ cli }) => {
    const { dir, storedEmails } = cli;
    const emails = Array.from({ length: 2100 }, (_, i) => `p${i}@example.com`);
    const store = await JsonWaitlistStore.open(dir);
    await Promise.all(emails.map((email) => store.upsert({ email, consent: true }, 'json', BAR[2])));
    expect(await store.erase('p5@example.com')).toBe(true);
    expect(await store.erase('p5@example.com')).toBe(false);
    await store.upsert({ email: 'p2000@example.com', consent: true, role: 'data' }, 'json', BAR[2]);
    await store.upsert({ email: 'late@example.com', consent: true }, 'json', BAR[2]);
    await store.close();
    const expected = [...emails.filter((email) => email !== 'p5@example.com'), 'late@example.com'];
    expect(await storedEmails()).toEqual(expected);
    const reopened = await JsonWaitlistStore.open(dir);
    expect((await reopened.show('p2000@example.com'))?.role).toBe('data');
    await reopened.close();
  });
});
