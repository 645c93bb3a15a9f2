/**
 * The operator's waitlist command (`node scripts/waitlist.ts`): export, count and erase on a temp
 * DATA_DIR, run as a real process with a clean environment, alone and next to a running sidecar.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { API_PATHS, type WaitlistSignup } from '../../api/contract/index.ts';
import { CSV_COLUMNS } from '../../api/sidecar/domain/record-export.ts';
import type { Channel } from '../../api/sidecar/domain/consent.ts';
import { dataDirLockPath } from '../../api/sidecar/store/lock.ts';
import { JsonWaitlistStore, STORE_FILE_NAME } from '../../api/sidecar/store/json/waitlist-store.ts';
import { send } from '../support/request.ts';
import { ROOT, startSidecar, type Running } from './support/process.ts';
import { jsonPost } from './support/requests.ts';

let dir: string;
let dataFile: string;
const running: Running[] = [];
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'waitlist-cli-'));
  dataFile = join(dir, STORE_FILE_NAME);
});
afterEach(async () => {
  for (const r of running.splice(0)) {
    if (r.child.exitCode === null && r.child.signalCode === null) r.child.kill('SIGKILL');
    await r.exited;
  }
  await rm(dir, { recursive: true, force: true });
});

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs the command with only PATH, BASE_URL and DATA_DIR set (vitest's env has BASE_URL=/). */
function waitlist(...args: string[]): Promise<Run> {
  const child = spawn(process.execPath, ['scripts/waitlist.ts', ...args], {
    cwd: ROOT,
    env: { PATH: process.env.PATH, BASE_URL: 'https://waitlist.example', DATA_DIR: dir },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => (stdout += chunk));
  child.stderr.on('data', (chunk) => (stderr += chunk));
  return new Promise((done) => child.on('close', (code) => done({ code, stdout, stderr })));
}

async function seed(signups: [WaitlistSignup, Channel, string][]): Promise<void> {
  const store = await JsonWaitlistStore.open(dir);
  for (const [signup, channel, at] of signups) await store.upsert(signup, channel, at);
  await store.close();
}

const storedEmails = async () => JSON.parse(await readFile(dataFile, 'utf8')).records.map((r: { email: string }) => r.email);

const FOO: [WaitlistSignup, Channel, string] = [
  { email: 'foo@example.com', consent: true, role: 'data', building: 'rag', source: 'hero', lang: 'de' },
  'form',
  '2026-11-20T10:00:00.000Z',
];
const BAR: [WaitlistSignup, Channel, string] = [{ email: 'bar@example.com', consent: true }, 'json', '2026-11-21T10:00:00.000Z'];
const IDN: [WaitlistSignup, Channel, string] = [{ email: 'a@xn--mnchen-3ya.de', consent: true }, 'json', '2026-11-22T10:00:00.000Z'];

describe('waitlist command', () => {
  it('export: JSON lines by default, every field of every record exactly as stored, in sign-up order', async () => {
    await seed([FOO, BAR]);
    const run = await waitlist('export');
    expect(run.code).toBe(0);
    const lines = run.stdout.trimEnd().split('\n').map((line) => JSON.parse(line));
    expect(lines).toEqual(JSON.parse(await readFile(dataFile, 'utf8')).records);
    expect(lines[0]).toMatchObject({ email: 'foo@example.com', role: 'data', building: 'rag', source: 'hero', lang: 'de', consent: { form: 'hero', channel: 'form', lang: 'de' } });
    expect((await waitlist('export', '--format=jsonl')).stdout).toBe(run.stdout);
  });

  it('export --format=csv: RFC 4180 with a header of every field (consent flattened), empty cells for unanswered questions', async () => {
    await seed([FOO, BAR]);
    const run = await waitlist('export', '--format=csv');
    expect(run.code).toBe(0);
    const [header, foo, bar, end] = run.stdout.split('\r\n');
    expect(header).toBe('email,createdAt,consentAt,updatedAt,lang,role,building,source,consent.form,consent.channel,consent.lang,consent.textVersion');
    expect(CSV_COLUMNS.join(',')).toBe(header);
    const version = JSON.parse(await readFile(dataFile, 'utf8')).records[0].consent.textVersion;
    expect(foo).toBe(`foo@example.com,${FOO[2]},${FOO[2]},${FOO[2]},de,data,rag,hero,hero,form,de,${version}`);
    expect(bar).toBe(`bar@example.com,${BAR[2]},${BAR[2]},${BAR[2]},en,,,,api,json,en,${version}`);
    expect(end).toBe('');
  });

  it('export --format=csv: a value with a comma or a double quote is quoted, quotes doubled', async () => {
    await seed([BAR]);
    const document = JSON.parse(await readFile(dataFile, 'utf8'));
    document.records[0].consent.textVersion = '2026-11-01, "draft"';
    await writeFile(dataFile, JSON.stringify(document));
    const run = await waitlist('export', '--format=csv');
    expect(run.stdout.split('\r\n')[1]).toMatch(/,"2026-11-01, ""draft"""$/);
  });

  it('count: prints the number of records', async () => {
    await seed([FOO, BAR, IDN]);
    const run = await waitlist('count');
    expect(run).toMatchObject({ code: 0, stdout: '3\n' });
  });

  it('export and count run while the sidecar serves: read-only, they show its last commit and leave it running', async () => {
    const sidecar = await startSidecar({ DATA_DIR: dir });
    running.push(sidecar);
    expect((await send(sidecar.url, API_PATHS.waitlist, jsonPost({ email: 'live@example.com', consent: true }))).status).toBe(200);
    expect((await waitlist('count')).stdout).toBe('1\n');
    expect(JSON.parse((await waitlist('export')).stdout).email).toBe('live@example.com');
    expect((await send(sidecar.url, API_PATHS.status)).status).toBe(200);
  });

  for (const [typed, stored] of [
    ['Foo@Example.COM ', 'foo@example.com'],
    ['A@MÜNCHEN.de', 'a@xn--mnchen-3ya.de'],
  ]) {
    it(`erase: ${JSON.stringify(typed)} finds ${stored} (the sidecar's normalisation); only that record goes, durably`, async () => {
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

  it('erase: an address without a record -> exit 3, "No record", the file unchanged to the byte', async () => {
    await seed([FOO]);
    const before = await readFile(dataFile);
    const run = await waitlist('erase', 'nobody@example.com');
    expect(run.code).toBe(3);
    expect(run.stdout).toContain('No record of "nobody@example.com"');
    expect(await readFile(dataFile)).toEqual(before);
  });

  it('erase while the sidecar runs -> exit 1 naming its pid, nothing changed; stopped, erased, started again: the record is gone', async () => {
    const sidecar = await startSidecar({ DATA_DIR: dir });
    running.push(sidecar);
    await send(sidecar.url, API_PATHS.waitlist, jsonPost({ email: 'gone@example.com', consent: true }));
    await send(sidecar.url, API_PATHS.waitlist, jsonPost({ email: 'stays@example.com', consent: true }));
    const before = await readFile(dataFile);

    const refused = await waitlist('erase', 'gone@example.com');
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(`The sidecar is running (pid ${sidecar.child.pid})`);
    expect(refused.stderr).toContain('Stop the service, erase, start again');
    expect(await readFile(dataFile)).toEqual(before);
    expect((await send(sidecar.url, API_PATHS.status)).status).toBe(200);

    sidecar.child.kill('SIGTERM');
    await sidecar.exited;
    expect((await waitlist('erase', 'gone@example.com')).code).toBe(0);
    const again = await startSidecar({ DATA_DIR: dir });
    running.push(again);
    expect((await send(again.url, API_PATHS.status)).status).toBe(200);
    expect(await storedEmails()).toEqual(['stays@example.com']);
  });

  it('erase: a corrupt data file -> exit 1 naming it, left untouched, the lock released', async () => {
    const corrupt = '{"format":"waitlist-store","version":1,"records":[{"email":"half';
    await writeFile(dataFile, corrupt);
    const run = await waitlist('erase', 'half@example.com');
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(dataFile);
    expect(await readFile(dataFile, 'utf8')).toBe(corrupt);
    await expect(stat(dataDirLockPath(dir))).rejects.toThrow();
  });

  it('export, count, erase: no data file (wrong DATA_DIR?) -> exit 1 naming the path, nothing created', async () => {
    const runs = await Promise.all([['export'], ['count'], ['erase', 'a@example.com']].map((args) => waitlist(...args)));
    for (const run of runs) {
      expect(run.code).toBe(1);
      expect(run.stderr).toContain(dataFile);
    }
    await expect(stat(dataFile)).rejects.toThrow();
  });

  it('usage: no or unknown command, unknown format, missing, blank or extra arguments -> exit 2 with the usage line', async () => {
    const cases = [[], ['frobnicate'], ['export', '--format=xml'], ['export', 'csv'], ['count', 'extra'], ['erase'], ['erase', ' '], ['erase', 'a@example.com', 'b@example.com']];
    const runs = await Promise.all(cases.map((args) => waitlist(...args)));
    expect(runs.map((run) => run.code)).toEqual(cases.map(() => 2));
    for (const run of runs) expect(run.stderr).toContain('usage: npm run waitlist --');
  }, 60_000);

  it('store erase: across serialisation chunks the file keeps every other record in order, and later sign-ups still land', async () => {
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
