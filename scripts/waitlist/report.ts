/**
 * `npm run waitlist -- report` (docs/operator.md, "The report"): per-day counts and members per
 * domain from the store, and the last 48 hours' records streamed past for the hourly series, of
 * which only counts are kept (api/report/recent.ts). Nothing here prints an address.
 */
import { randomBytes } from 'node:crypto';
import { access, constants, rename, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { DISPOSABLE_DOMAINS } from '../../api/deliverability/throwaway-domains.ts';
import { DEFAULT_DAYS, MAX_DAYS, reportPeriod, storeRange } from '../../api/report/period.ts';
import { recentOf } from '../../api/report/recent.ts';
import { buildReport, type Report } from '../../api/report/series.ts';
import { EXIT, numberOption, timeOption, UsageError, write, type Subcommand } from '../cli.ts';
import { withStore } from './store.ts';

const FORMATS = ['html', 'text', 'json'] as const;
type Format = (typeof FORMATS)[number];

function periodOf(values: Record<string, string | boolean | undefined>) {
  // Every option of the period is a string option: parseArgs gives a string or nothing.
  const { now, days, since } = values as Record<string, string | undefined>;
  if (days !== undefined && since !== undefined) throw new UsageError('--days and --since both choose the first day: give one of them');
  const period = reportPeriod(now === undefined ? Date.now() : timeOption('now', now), {
    days: numberOption('days', days, { min: 1, max: MAX_DAYS, whole: true }),
    since: since === undefined ? undefined : new Date(timeOption('since', since)).toISOString(),
  });
  if (period.days < 1) throw new UsageError(`--since ${since} is after the report's last day, ${period.to}`);
  if (period.days > MAX_DAYS) throw new UsageError(`--since ${since} is more than ${MAX_DAYS} days before ${period.to}`);
  return period;
}

/** The renderers are loaded when used: the charting library alone is ~35 MB that the other commands of `waitlist` never need. */
async function render(format: Format, report: Report): Promise<string> {
  if (format === 'json') return `${JSON.stringify(report)}\n`;
  if (format === 'text') return (await import('../../api/report/text.ts')).reportText(report);
  return (await import('../../api/report/html.ts')).reportHtml(report);
}

/** Rejects with the reason (an errno code) when `dir` is not a directory this process may write in. */
async function writableDirectory(dir: string): Promise<void> {
  if (!(await stat(dir)).isDirectory()) throw Object.assign(new Error(`${dir} is not a directory`), { code: 'ENOTDIR' });
  await access(dir, constants.W_OK);
}

/** Written whole or not at all: a temporary file beside the target, renamed over it. Readable by all (0644): a report holds only counts and is made to be shared. */
async function writeWhole(path: string, text: string): Promise<void> {
  const temporary = `${path}.${randomBytes(4).toString('hex')}.tmp`;
  try {
    await writeFile(temporary, text, { mode: 0o644 });
    await rename(temporary, path);
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
}

const WHY: Record<string, string> = {
  ENOENT: 'its directory does not exist',
  ENOTDIR: 'a part of its path is not a directory',
  EACCES: 'no permission to write there',
  EPERM: 'no permission to write there',
  EROFS: 'the file system is read-only',
  EISDIR: 'it is a directory',
  ENOSPC: 'the disk is full',
};
/** Fails with the reason in words, and the system's code for a search. */
function cannotWrite(out: string, error: unknown): never {
  const code = (error as NodeJS.ErrnoException).code;
  throw new Error(`cannot write the report to ${out}: ${code ? `${WHY[code] ?? 'the system refused'} (${code})` : (error as Error).message}`);
}

export const report: Subcommand = {
  synopsis: 'report [--format html|text|json] [--out FILE] [--days N | --since DATE] [--now TIME]',
  help: [
    'Sign-ups per day with charts: totals, 7-day average, cumulative total, each answer per day and its share,',
    'this week and the last 30 days against the ones before; members at throwaway domains and their share;',
    'sign-ups per hour over the last 48 hours. Aggregates only, never an address.',
    '  --format html    one self-contained page with charts (default); written to --out, or',
    '                   to waitlist-report-<DAY>.html in the current directory',
    '  --format text    the same numbers with sparklines, for a terminal (stdout unless --out)',
    '  --format json    the numbers themselves, documented in docs/operator.md (stdout unless --out)',
    `  --days N         the last N days, today included (default ${DEFAULT_DAYS}, at most ${MAX_DAYS})`,
    '  --since DATE     from DATE (UTC) to today, e.g. 2026-09-01',
    '  --out FILE       where to write; - for stdout',
    '  --now TIME       the report as of TIME instead of now (reproducible reports), e.g. 2026-11-25T12:00:00Z',
  ].join('\n'),
  options: { format: { type: 'string', choices: FORMATS }, out: { type: 'string' }, days: { type: 'string' }, since: { type: 'string' }, now: { type: 'string' } },
  async run({ values }) {
    const format = (values.format ?? 'html') as Format;
    const period = periodOf(values);
    const outValue = typeof values.out === 'string' ? values.out : format === 'html' ? `waitlist-report-${period.to}.html` : '-';
    if (outValue === '') throw new UsageError('--out is empty: give a file name, or - for stdout');
    const out = outValue === '-' ? undefined : resolve(outValue);
    // Checked before the store is asked, so a typo costs nothing.
    if (out) await writableDirectory(dirname(out)).catch((error) => cannotWrite(out, error));
    const built = await withStore('read', async ({ store }) =>
      buildReport(period, await store.signupsPerDay(storeRange(period)), await recentOf(store, Date.parse(period.now), DISPOSABLE_DOMAINS)),
    );
    const text = await render(format, built);
    if (!out) {
      await write(text);
      return EXIT.ok;
    }
    await writeWhole(out, text).catch((error) => cannotWrite(out, error));
    console.error(`Wrote the ${format} report of ${period.from} to ${period.to} to ${out}`);
    return EXIT.ok;
  },
};
