/**
 * `waitlist report` as the operator runs it (a real process, the injected time --now), over the
 * same known sign-ups on both engines: the JSON store with its sidecar running, and PostgreSQL.
 * One generation per format and engine, shared by the assertions: the json series and the html
 * tables equal the numbers counted from the fixture, no output holds an address, and bad options
 * exit 2 (1 for an unwritable file) with a first line naming the problem.
 */
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { openBackend } from '../../api/sidecar/store/open-backend.ts';
import { JsonWaitlistStore, STORE_FILE_NAME } from '../../api/sidecar/store/json/waitlist-store.ts';
import { runProgram, type Program } from '../../scripts/cli.ts';
import { report } from '../../scripts/waitlist/report.ts';
import { postgresBinDir } from '../support/engines/postgres.ts';
import { describeWithEngine } from '../support/engines/require.ts';
import { usePostgres } from './support/backends.ts';
import { runCommand, type Finished } from './support/cli.ts';
import { testConfig } from './support/harness.ts';
import { startSidecar, type Running } from './support/process.ts';
import { expectedNumbers, FIXTURE, FIXTURE_EMAILS, NOW } from './support/report-fixture.ts';
import { htmlTable } from './support/report-html.ts';

const expected = expectedNumbers();
const DIMENSIONS = ['byLang', 'byRole', 'byBuilding', 'bySource'] as const;
const n = (text: string) => Number(text.replace(/,/g, ''));

interface Outputs {
  html: string;
  json: Finished;
  text: Finished;
  htmlRun: Finished;
}

/** The three formats at once, as of NOW over the default 90 days. */
async function generate(env: Record<string, string>, dir: string): Promise<Outputs> {
  const out = join(dir, 'report.html');
  const run = (...args: string[]) => runCommand('scripts/waitlist.ts', ['report', '--now', NOW, ...args], env);
  const [htmlRun, json, text] = await Promise.all([run('--out', out), run('--format', 'json'), run('--format=text')]);
  return { htmlRun, json, text, html: htmlRun.code === 0 ? await readFile(out, 'utf8') : '' };
}

function reportSuite(open: () => Promise<{ env: Record<string, string>; dir: string; close(): Promise<void> }>): void {
  let outputs: Outputs;
  let close: () => Promise<void>;
  beforeAll(async () => {
    const opened = await open();
    close = opened.close;
    outputs = await generate(opened.env, opened.dir);
  }, 120_000);
  afterAll(() => close?.());

  it('report: every format exits 0; html goes to --out, text and json to stdout', () => {
    for (const run of [outputs.htmlRun, outputs.json, outputs.text]) expect(run, run.stderr).toMatchObject({ code: 0 });
    expect(outputs.htmlRun.stdout).toBe('');
    expect(outputs.html).toMatch(/^<!doctype html>/);
  });

  it('report --format json: the series equal the numbers counted from the fixture, exactly', () => {
    const report = JSON.parse(outputs.json.stdout);
    expect(report.period).toEqual({ now: NOW, from: '2026-08-28', to: '2026-11-25', days: 90 });
    expect(report.days).toEqual(expected.days);
    expect(report.signups).toEqual(expected.signups);
    expect(report.average7).toEqual(expected.average7);
    expect(report.cumulative).toEqual(expected.cumulative);
    expect(report.totals).toEqual({ before: expected.before, period: expected.all - expected.before, all: expected.all });
    expect(report.totals.all).toBe(193);
    for (const key of DIMENSIONS) {
      expect(report.dimensions[key].answers).toEqual(expected.answersOf[key]);
      expect(report.dimensions[key].perDay).toEqual(expected.perDay[key]);
    }
    expect(report.comparisons.week).toEqual({
      current: { from: '2026-11-19', to: '2026-11-25', signups: 15 },
      previous: { from: '2026-11-12', to: '2026-11-18', signups: 11 },
      change: 4,
      changePercent: 36.4,
    });
    expect(report.comparisons.month).toMatchObject({ current: { signups: 54 }, previous: { signups: 55 }, change: -1, changePercent: -1.8 });
    expect([expected.week.current, expected.week.previous, expected.month.current, expected.month.previous]).toEqual([15, 11, 54, 55]);
  });

  it('report (html): each chart has its title, inline SVG and its numbers in a table equal to the fixture\'s', () => {
    const { html } = outputs;
    const perDay = htmlTable(html, 'per-day');
    expect(perDay.map((row) => row[0])).toEqual(expected.days);
    expect(perDay.map((row) => n(row[1]))).toEqual(expected.signups);
    expect(perDay.map((row) => Number(row[2]))).toEqual(expected.average7);
    expect(htmlTable(html, 'cumulative').map((row) => n(row[1]))).toEqual(expected.cumulative);
    expect(htmlTable(html, 'per-hour').map((row) => row[0])).toEqual(JSON.parse(outputs.json.stdout).perHour.hours.map((hour: string) => `${hour.slice(0, 10)} ${hour.slice(11, 13)}:00`));
    for (const key of DIMENSIONS) {
      const rows = htmlTable(html, `per-day-${key}`);
      expected.answersOf[key].forEach((answer, i) => expect(rows.map((row) => n(row[i + 1])), `${key} ${answer}`).toEqual(expected.perDay[key][answer]));
    }
    const shares = htmlTable(html, 'shares');
    const period = expected.all - expected.before;
    const roleTotals = expected.answersOf.byRole.map((a) => expected.perDay.byRole[a].reduce((x, y) => x + y, 0));
    expect(shares.filter((row) => row[0].startsWith('Role: ')).map((row) => [n(row[1]), row[2]])).toEqual(
      roleTotals.map((total) => [total, `${(Math.round((total / period) * 1000) / 10).toFixed(1)} %`]),
    );
    const sections = [...html.matchAll(/<section aria-labelledby="([^"]+)"><h2 id="\1">([^<]+)<\/h2><div class="chart" role="img" aria-label="[^"]+"><svg [^>]+>[\s\S]*?<\/svg><\/div><details>/g)];
    expect(sections.map((m) => m[2])).toEqual([
      'Sign-ups per day, with the 7-day average',
      'Sign-ups per hour, the last 48 hours',
      'Cumulative total',
      'Sign-ups per day by language',
      'Sign-ups per day by role',
      'Sign-ups per day by use case',
      'Sign-ups per day by form',
      'Share of each answer',
    ]);
    expect(html).not.toMatch(/<script|<link|<img|@import|url\(/i);
  });

  it('report --format text: the same totals, each answer with its count, share and a sparkline of a mark per 2 days', () => {
    const lines = outputs.text.stdout.split('\n');
    expect(lines.find((l) => l.startsWith('Sign-ups in total'))).toMatch(/\b193\b/);
    expect(lines.find((l) => l.startsWith('Last 7 days'))).toMatch(/\b15\s+2026-11-19 to 2026-11-25/);
    expect(outputs.text.stdout).toMatch(/\+4 \(\+36\.4 %\) against 11 \(2026-11-12 to 2026-11-18\)/);
    const developer = lines.find((l) => l.startsWith('  developer'))!;
    const total = expected.perDay.byRole.developer.reduce((a, b) => a + b, 0);
    expect(developer).toMatch(new RegExp(`^  developer\\s+${total}\\s+[\\d.]+ %  [▁▂▃▄▅▆▇█]{45}$`));
  });

  it('report: no format holds an address of the fixture (aggregates only)', () => {
    const everything = [outputs.html, outputs.json.stdout, outputs.text.stdout, outputs.htmlRun.stderr, outputs.json.stderr, outputs.text.stderr].join('\n');
    for (const email of FIXTURE_EMAILS) expect(everything).not.toContain(email);
    expect(everything).not.toContain('example.com');
  });
}

describe('waitlist report on the JSON store, its sidecar running', { timeout: 60_000 }, () => {
  reportSuite(async () => {
    const dir = await mkdtemp(join(tmpdir(), 'report-json-'));
    const store = await JsonWaitlistStore.open(dir);
    for (const [signup, channel, at] of FIXTURE) await store.upsert(signup, channel, at);
    await store.close();
    let sidecar: Running | undefined = await startSidecar({ DATA_DIR: dir });
    return {
      env: { DATA_DIR: dir },
      dir,
      async close() {
        sidecar?.child.kill('SIGTERM');
        await sidecar?.exited;
        sidecar = undefined;
        await rm(dir, { recursive: true, force: true });
      },
    };
  });
});

describeWithEngine('PostgreSQL', postgresBinDir(), 'waitlist report on PostgreSQL', () => {
  const engine = usePostgres();
  describe('report', { timeout: 60_000 }, () => {
    reportSuite(async () => {
      const url = await engine().createSchema();
      const backend = await openBackend({ ...testConfig(), DATABASE_URL: url });
      for (const [signup, channel, at] of FIXTURE) await backend.store.upsert(signup, channel, at);
      await backend.close();
      const dir = await mkdtemp(join(tmpdir(), 'report-pg-'));
      return { env: { DATABASE_URL: url }, dir, close: () => rm(dir, { recursive: true, force: true }) };
    });
  });
});

/**
 * Usage errors and an unwritable --out are found before the configuration or the store is read:
 * they run in this process through the commands' parser (scripts/cli.ts runProgram), what the
 * real command's main() runs; --help and an empty list run as the real process.
 */
describe('waitlist report: options', { timeout: 60_000 }, () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'report-options-'));
    await (await JsonWaitlistStore.open(dir)).close();
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));
  const program: Program = { name: 'npm run waitlist --', summary: '', footer: '', commands: { report } };

  /** Exit code and stderr of the command run in-process; a thrown error is what main() prints with exit 1. */
  async function inProcess(...args: string[]): Promise<{ code: number; stderr: string }> {
    let stderr = '';
    const spy = vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => ((stderr += String(chunk)), true));
    try {
      return { code: await runProgram(program, ['report', ...args]), stderr };
    } catch (error) {
      return { code: 1, stderr: `${stderr}waitlist: ${(error as Error).message}\n` };
    } finally {
      spy.mockRestore();
    }
  }
  const firstLine = (run: { stderr: string }) => run.stderr.split('\n')[0];

  it('report: a bad date, an unknown format, --days 0, --days with --since, --since after --now -> exit 2 naming the problem', async () => {
    const cases: [string[], string | RegExp][] = [
      [['--since', '2026-13-45'], 'error: --since must be a date or time such as 2026-11-01 or 2026-11-01T12:00:00Z, not "2026-13-45"'],
      [['--now', 'yesterday'], /^error: --now must be a date or time/],
      [['--format', 'pdf'], 'error: --format must be one of html, text, json, not "pdf"'],
      [['--days', '0'], 'error: --days must be a whole number from 1 to 3660, not "0"'],
      [['--days', '7', '--since', '2026-11-01'], /^error: --days and --since/],
      [['--since', '2026-12-01', '--now', NOW], "error: --since 2026-12-01 is after the report's last day, 2026-11-25"],
    ];
    for (const [args, line] of cases) {
      const run = await inProcess(...args);
      expect(run.code, args.join(' ')).toBe(2);
      if (typeof line === 'string') expect(firstLine(run)).toBe(line);
      else expect(firstLine(run)).toMatch(line);
    }
  });

  it('report: an --out that cannot be written -> exit 1, one line naming the file and why, and no file', async () => {
    const unwritable = join(dir, STORE_FILE_NAME, 'report.html');
    const run = await inProcess('--out', unwritable);
    expect(run.code).toBe(1);
    expect(run.stderr.trimEnd().split('\n')).toEqual([`waitlist: cannot write the report to ${unwritable}: a part of its path is not a directory (ENOTDIR)`]);
    await expect(stat(unwritable)).rejects.toThrow();
  });

  it('report --help -> exit 0 with the usage; --since on an empty list: from that day to now, every count 0, no change has a percentage', async () => {
    const env = { DATA_DIR: dir };
    const [help, empty] = await Promise.all([
      runCommand('scripts/waitlist.ts', ['report', '--help'], env),
      runCommand('scripts/waitlist.ts', ['report', '--format', 'json', '--since', '2026-11-19', '--now', NOW], env),
    ]);
    expect(help).toMatchObject({ code: 0, stderr: '' });
    expect(help.stdout).toMatch(/^usage: npm run waitlist -- report /);
    const json = JSON.parse(empty.stdout);
    expect(json.period).toEqual({ now: NOW, from: '2026-11-19', to: '2026-11-25', days: 7 });
    expect(json.signups).toEqual([0, 0, 0, 0, 0, 0, 0]);
    expect(json.comparisons.week).toMatchObject({ change: 0, changePercent: null });
  });
});
