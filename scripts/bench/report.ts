/**
 * `npm run bench` (report part): `npm run waitlist -- report` as an operator runs it, a child
 * process timed from the outside (wall time, and peak RSS from GNU time's wait4 rusage), on
 * PostgreSQL at 1,000,000 records and on the JSON store at 200,000 (its sidecar running, so the
 * command asks it over the operator channel; and with none, reading the file itself). First sign-ups
 * are spread over 400 days with every answer. Each row's reference is `waitlist count` in the same
 * setting: the cost of starting the command and reaching the store, measured in the same run.
 *
 * Targets, while the service runs (PostgreSQL; JSON through its sidecar): every report <= 5 s and
 * <= 300 MB peak RSS. With the JSON service stopped the command parses the whole file itself, as
 * `waitlist count` does; that row is shown, not held to the target. `--sizes=PG,JSON` changes the sizes.
 */
import { fork, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { BUILDING, LANGS, ROLES, SOURCES } from '../../api/contract/index.ts';
import { CONSENT_TEXT_VERSION } from '../../api/sidecar/domain/consent.ts';
import type { WaitlistRecord } from '../../api/sidecar/domain/record.ts';
import { DAY_MS } from '../../api/sidecar/domain/stats.ts';
import { replaceFileDurably } from '../../api/sidecar/store/durable-file.ts';
import { RecordTable } from '../../api/sidecar/store/json/record-table.ts';
import { storeCodec } from '../../api/sidecar/store/json/store-file.ts';
import { STORE_FILE_NAME } from '../../api/sidecar/store/json/waitlist-store.ts';
import { DAY_SERIES_SQL } from '../../api/sidecar/store/postgres/day-series.ts';
import { migrateSchema } from '../../api/sidecar/store/postgres/schema.ts';
import { reportPeriod, storeRange } from '../../api/report/period.ts';
import { startPostgres } from '../../test/support/engines/postgres.ts';
import { nextMessage } from './child-stats.ts';
import { benchOptions, during } from './progress.ts';
import { table } from './table.ts';

const TIME = '/usr/bin/time';
const ROOT = join(import.meta.dirname, '..', '..');
const TARGET_SECONDS = 5;
const TARGET_MB = 300;
const SPREAD_DAYS = 400;
const [PG_RECORDS, JSON_RECORDS] = (benchOptions().sizes ?? '1000000,200000').split(',').map(Number);

interface Run {
  seconds: number;
  /** User + system CPU time: what the command itself cost, robust where wall time is not. */
  cpuSeconds: number;
  peakMb: number;
}

/** Runs `waitlist <args>` under GNU time; its last stderr line is "<wall s> <user s> <system s> <max RSS KiB>". */
function measure(args: string[], env: Record<string, string>): Promise<Run> {
  const child = spawn(TIME, ['-f', '%e %U %S %M', process.execPath, join(ROOT, 'scripts', 'waitlist.ts'), ...args], {
    env: { PATH: process.env.PATH, BASE_URL: 'https://waitlist.example', ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk) => (stderr += chunk));
  return new Promise((done, fail) =>
    child.on('close', (code) => {
      const last = stderr.trimEnd().split('\n').at(-1) ?? '';
      const [seconds, user, system, kib] = last.split(' ').map(Number);
      if (code !== 0 || !Number.isFinite(kib)) return fail(new Error(`waitlist ${args.join(' ')} failed (${code}): ${stderr}`));
      done({ seconds, cpuSeconds: user + system, peakMb: kib / 1024 });
    }),
  );
}

/** Rows as the sidecar would write them: first sign-ups over SPREAD_DAYS days, every answer, some unanswered. */
const FILL_SQL = `
INSERT INTO waitlist (email, created_at, consent_at, updated_at, lang, role, building, source,
                      consent_form, consent_channel, consent_lang, consent_text_version)
SELECT 'seed' || i || '@example.com', t, t, t, ($2::text[])[1 + i % 2],
       -- one past the last answer reads NULL: unanswered
       ($3::text[])[1 + i % 6], ($4::text[])[1 + i % 6], ($5::text[])[1 + i % 3], 'api', 'json', 'en', $6
FROM generate_series(1, $1) AS i, LATERAL (SELECT now() - ((i::bigint * 7919) % ($7 * 86400)) * interval '1 second' AS t) AS times`;

async function seedPostgres(url: string, size: number): Promise<void> {
  const pool = new pg.Pool({ connectionString: url, max: 1 });
  try {
    await migrateSchema(pool);
    // The fill skips the table's triggers (the statistics' counters, which the report never reads):
    // with them a million single-row trigger calls take minutes on this machine.
    const client = await pool.connect();
    try {
      await client.query('SET session_replication_role = replica');
      await client.query(FILL_SQL, [
        size, [...LANGS], [...ROLES], [...BUILDING], [...SOURCES], CONSENT_TEXT_VERSION, SPREAD_DAYS,
      ]);
    } finally {
      client.release();
    }
    await pool.query('VACUUM ANALYZE waitlist');
  } finally {
    await pool.end();
  }
}

/** signupsPerDay's statement for the ranges of a 90- and a 365-day report: the median of 3 runs, ms. */
async function timeQuery(url: string): Promise<Record<number, number>> {
  const pool = new pg.Pool({ connectionString: url, max: 1 });
  try {
    const result: Record<number, number> = {};
    for (const days of [90, 365]) {
      const range = storeRange(reportPeriod(Date.now(), { days }));
      const times: number[] = [];
      for (let i = 0; i < 3; i++) {
        const started = performance.now();
        await pool.query(DAY_SERIES_SQL, [range.since, range.until]);
        times.push(performance.now() - started);
      }
      result[days] = times.sort((a, b) => a - b)[1];
    }
    return result;
  } finally {
    await pool.end();
  }
}

async function seedJson(dir: string, size: number): Promise<void> {
  const now = Date.now();
  const records: WaitlistRecord[] = [];
  const pick = <T>(values: readonly T[], i: number): T | undefined => (i % (values.length + 1) === values.length ? undefined : values[i % (values.length + 1)]);
  for (let i = 0; i < size; i++) {
    const at = new Date(now - ((i * 7919) % (SPREAD_DAYS * 86_400)) * 1000).toISOString();
    const record: WaitlistRecord = { email: `seed${i}@example.com`, createdAt: at, consentAt: at, updatedAt: at, lang: LANGS[i % 2],
      consent: { form: 'api', channel: 'json', lang: 'en', textVersion: CONSENT_TEXT_VERSION } };
    const [role, building, source] = [pick(ROLES, i), pick(BUILDING, i), pick(SOURCES, i)];
    if (role) record.role = role;
    if (building) record.building = building;
    if (source) record.source = source;
    records.push(record);
  }
  records.sort((a, b) => (a.createdAt < b.createdAt ? -1 : 1));
  const path = join(dir, STORE_FILE_NAME);
  await replaceFileDurably(path, storeCodec(path).serialize(new RecordTable(records)));
}

/** The real sidecar on DATA_DIR (TCP on an ephemeral port; the operator socket in DATA_DIR). */
async function startSidecar(dir: string) {
  const child = fork(join(ROOT, 'api', 'sidecar', 'main.ts'), [], {
    env: { PATH: process.env.PATH, BASE_URL: 'https://waitlist.example', DATA_DIR: dir, SIDECAR_LISTEN: 'tcp', SIDECAR_PORT: '0', LOG_REQUESTS: 'false', LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  await nextMessage(child, 'ready');
  return { stop: () => new Promise<void>((done) => (child.exitCode !== null ? done() : (child.once('exit', () => done()), child.kill('SIGTERM')))) };
}

async function main(): Promise<void> {
  if (!existsSync(TIME)) throw new Error(`${TIME} (GNU time) is needed for the peak RSS: apt-get install time`);
  console.log(`Report benchmark: PostgreSQL at ${PG_RECORDS.toLocaleString('en')} records, JSON store at ${JSON_RECORDS.toLocaleString('en')}; first sign-ups over ${SPREAD_DAYS} days\n`);
  const dir = await mkdtemp(join(tmpdir(), 'bench-report-'));
  const engine = await during('starting a throwaway PostgreSQL', startPostgres({ durable: true }));
  const abandon = () => void engine.stop().finally(() => process.exit(130));
  process.once('SIGINT', abandon).once('SIGTERM', abandon);
  const rows: string[][] = [];
  let failed = false;
  /** `targeted`: the targets are for the running service; with the JSON service stopped the command reads the whole file, as count does. */
  const row = (engineName: string, what: string, run: Run, reference: Run, targeted = true) => {
    const ok = run.seconds <= TARGET_SECONDS && run.peakMb <= TARGET_MB;
    if (targeted) failed ||= !ok;
    rows.push([
      engineName,
      what,
      run.seconds.toFixed(2),
      run.cpuSeconds.toFixed(2),
      (run.cpuSeconds / reference.cpuSeconds).toFixed(1),
      run.peakMb.toFixed(0),
      (run.peakMb / reference.peakMb).toFixed(1),
      targeted ? (ok ? 'yes' : 'NO') : 'not a target',
    ]);
  };
  const reference = (engineName: string, run: Run) =>
    rows.push([engineName, 'count (reference)', run.seconds.toFixed(2), run.cpuSeconds.toFixed(2), '1.0', run.peakMb.toFixed(0), '1.0', '']);
  let queryMs: Record<number, number> = {};
  const reports = (out: string): [string, string[]][] => [
    ['report html, 90 days', ['report', '--out', out]],
    ['report html, 365 days', ['report', '--days', '365', '--out', out]],
    ['report json, 365 days', ['report', '--format', 'json', '--days', '365', '--out', out]],
  ];
  try {
    const url = await engine.createDatabase('bench_report');
    await during(`PostgreSQL: ${PG_RECORDS.toLocaleString('en')} rows by generate_series, then VACUUM ANALYZE`, seedPostgres(url, PG_RECORDS));
    const pgEnv = { DATABASE_URL: url };
    const pgCount = await during('PostgreSQL: waitlist count (reference)', measure(['count'], pgEnv));
    reference('PostgreSQL', pgCount);
    queryMs = await during('PostgreSQL: the grouped query alone', timeQuery(url));
    for (const [what, args] of reports(join(dir, 'pg.html'))) row('PostgreSQL', what, await during(`PostgreSQL: ${what}`, measure(args, pgEnv)), pgCount);

    const dataDir = join(dir, 'data');
    await mkdir(dataDir, { mode: 0o700 });
    await during(`JSON store: writing ${JSON_RECORDS.toLocaleString('en')} records`, seedJson(dataDir, JSON_RECORDS));
    const jsonEnv = { DATA_DIR: dataDir };
    const fileCount = await during('JSON, no sidecar: waitlist count (reference)', measure(['count'], jsonEnv));
    reference('JSON, no sidecar', fileCount);
    for (const [what, args] of reports(join(dir, 'file.html'))) row('JSON, no sidecar', what, await during(`JSON, no sidecar: ${what}`, measure(args, jsonEnv)), fileCount, false);
    const sidecar = await during('JSON: starting the sidecar', startSidecar(dataDir));
    try {
      const channelCount = await during('JSON via the sidecar: waitlist count (reference)', measure(['count'], jsonEnv));
      reference('JSON via the sidecar', channelCount);
      for (const [what, args] of reports(join(dir, 'channel.html'))) row('JSON via the sidecar', what, await during(`JSON via the sidecar: ${what}`, measure(args, jsonEnv)), channelCount);
    } finally {
      await sidecar.stop();
    }
  } finally {
    await engine.stop();
    await rm(dir, { recursive: true, force: true });
  }
  console.log('');
  table(['engine', 'command', 'wall s', 'CPU s', '× count', 'peak MB', '× count', `≤ ${TARGET_SECONDS} s, ≤ ${TARGET_MB} MB`], rows);
  console.log(`\nThe grouped query alone (signupsPerDay's statement at ${PG_RECORDS.toLocaleString('en')} rows, median of 3): ${Object.entries(queryMs).map(([days, ms]) => `${days} days ${ms.toFixed(0)} ms`).join(', ')}`);
  if (failed) process.exitCode = 1;
}

await main();
