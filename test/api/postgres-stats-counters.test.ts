/**
 * The statistics' counters on PostgreSQL (store/postgres/stats-schema.ts) equal a full recount
 * (domain/stats.ts computeStats) after any writes of any writer: sign-ups, repeats that change an
 * answer or the first sign-up time, erasures, on two instances at once, at window boundaries to
 * the millisecond, and after a migration from JSON. `npm run waitlist -- stats --verify` finds no
 * difference. Skipped by name without PostgreSQL.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import type pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { BUILDING, LANGS, ROLES, SOURCES, type WaitlistSignup } from '../../api/contract/index.ts';
import type { WaitlistRecord } from '../../api/sidecar/domain/record.ts';
import { computeStats, DAY_MS } from '../../api/sidecar/domain/stats.ts';
import { JsonWaitlistStore } from '../../api/sidecar/store/json/waitlist-store.ts';
import { migrateToPostgres, readJsonDataDir } from '../../api/sidecar/store/postgres/migrate.ts';
import { openPool } from '../../api/sidecar/store/postgres/pool.ts';
import { migrateSchema } from '../../api/sidecar/store/postgres/schema.ts';
import { PostgresWaitlistStore } from '../../api/sidecar/store/postgres/waitlist-store.ts';
import { postgresBinDir, type PostgresEngine } from '../support/engines/postgres.ts';
import { sharedPostgres } from '../support/engines/shared.ts';
import { describeWithEngine } from '../support/engines/require.ts';
import { runCommand } from './support/cli.ts';

const HOUR_MS = 60 * 60 * 1000;
const BASE = Date.parse('2026-11-20T12:00:00.000Z');
const iso = (ms: number) => new Date(ms).toISOString();

const optional = <T>(values: readonly T[]) => fc.option(fc.constantFrom(...values), { nil: undefined });
/** Sign-up times on and around hour and day boundaries, from 40 days before BASE to a day after. */
const at = fc.tuple(fc.integer({ min: -40 * 24, max: 24 }), fc.constantFrom(0, 1, HOUR_MS - 1, 1234567)).map(([hours, ms]) => BASE + hours * HOUR_MS + ms);
const email = fc.integer({ min: 0, max: 7 }).map((i) => `p${i}@example.com`);
const signup = fc.record({
  kind: fc.constant('signup' as const),
  instance: fc.integer({ min: 0, max: 1 }),
  email,
  at,
  role: optional(ROLES),
  building: optional(BUILDING),
  source: optional(SOURCES),
  lang: optional(LANGS),
});
const erase = fc.record({ kind: fc.constant('erase' as const), instance: fc.integer({ min: 0, max: 1 }), email });
const operations = fc.array(fc.oneof({ arbitrary: signup, weight: 4 }, { arbitrary: erase, weight: 1 }), { maxLength: 30 });

/** Question times: each window's edges around every record's first sign-up, its hour and its day, ±1 ms. */
function questionTimes(createdAts: number[]): number[] {
  const starts = createdAts.flatMap((t) => [t, Math.floor(t / HOUR_MS) * HOUR_MS, Math.floor(t / DAY_MS) * DAY_MS, (Math.floor(t / HOUR_MS) + 1) * HOUR_MS]);
  return [BASE, ...starts.flatMap((t) => [7, 30].flatMap((days) => [-1, 0, 1].map((ms) => t + days * DAY_MS + ms)))];
}

describeWithEngine('PostgreSQL', postgresBinDir(), 'statistics counters on PostgreSQL', () => {
  let engine: PostgresEngine;
  const pools: pg.Pool[] = [];
  const dirs: string[] = [];
  const pool = async (url: string) => {
    const opened = await openPool(url, { max: 10 });
    pools.push(opened);
    return opened;
  };
  /** What computeStats reads of every committed record, straight from the table (not through the store). */
  const records = async (reader: pg.Pool): Promise<WaitlistRecord[]> => {
    const { rows } = await reader.query<{ created_at: Date; lang: string; role: string | null; building: string | null; source: string | null }>(
      'SELECT created_at, lang, role, building, source FROM waitlist',
    );
    return rows.map((row) => ({ createdAt: row.created_at.toISOString(), lang: row.lang, role: row.role ?? undefined, building: row.building ?? undefined, source: row.source ?? undefined }) as WaitlistRecord);
  };
  /** `npm run waitlist -- stats --verify --json` against the database, as the operator runs it. */
  const verifyCommand = async (url: string) => {
    const dir = await mkdtemp(join(tmpdir(), 'stats-verify-'));
    dirs.push(dir);
    return runCommand('scripts/waitlist.ts', ['stats', '--verify', '--json'], { DATA_DIR: dir, DATABASE_URL: url });
  };

  beforeAll(async () => {
    engine = await sharedPostgres();
  });
  afterAll(async () => {
    await Promise.all(pools.map((p) => p.end()));
    await engine?.stop();
    await Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true })));
  });

  it('stats counters: after random sign-ups, repeats and erasures on two instances, every count equals a full recount at every window edge', async () => {
    const url = await engine.createDatabase();
    const [a, b] = [await pool(url), await pool(url)];
    await migrateSchema(a);
    const stores = [new PostgresWaitlistStore(a), new PostgresWaitlistStore(b)];
    await fc.assert(
      fc.asyncProperty(operations, async (ops) => {
        await a.query('TRUNCATE waitlist');
        for (const op of ops) {
          if (op.kind === 'erase') await stores[op.instance].erase(op.email);
          else {
            const { role, building, source, lang } = op;
            const input = Object.fromEntries(Object.entries({ email: op.email, consent: true, role, building, source, lang }).filter(([, v]) => v !== undefined));
            await stores[op.instance].upsert(input as WaitlistSignup, 'json', iso(op.at));
          }
        }
        const all = await records(b);
        for (const now of questionTimes(all.map((r) => Date.parse(r.createdAt)))) {
          expect(await stores[1].stats(now)).toEqual(computeStats(all, now));
        }
      }),
      { numRuns: 40 },
    );
  }, 60_000);

  it('stats counters: writes outside the store (SQL on the table) are counted too, and TRUNCATE empties them', async () => {
    const url = await engine.createDatabase();
    const reader = await pool(url);
    await migrateSchema(reader);
    const store = new PostgresWaitlistStore(reader);
    await reader.query(
      `INSERT INTO waitlist SELECT 'sql' || i || '@example.com', t, t, t, CASE WHEN i % 2 = 0 THEN 'de' ELSE 'en' END,
         CASE WHEN i % 3 = 0 THEN NULL ELSE 'data' END, NULL, 'cta', 'cta', 'form', 'en', 'v1'
       FROM generate_series(1, 500) AS i, LATERAL (SELECT $1::timestamptz - i * interval '97 minutes' AS t) AS times`,
      [iso(BASE)],
    );
    await reader.query(`UPDATE waitlist SET role = 'founder', created_at = created_at - interval '3 days' WHERE email LIKE 'sql1%'`);
    await reader.query(`DELETE FROM waitlist WHERE email LIKE 'sql2%'`);
    const all = await records(reader);
    expect(await store.stats(BASE)).toEqual(computeStats(all, BASE));
    await reader.query('TRUNCATE waitlist');
    expect(await store.stats(BASE)).toEqual(computeStats([], BASE));
  });

  it('stats counters: concurrent sign-ups, repeats with changed answers and erasures on two instances leave 0 differences (stats --verify)', async () => {
    const url = await engine.createDatabase();
    const pools2 = [await pool(url), await pool(url)];
    await migrateSchema(pools2[0]);
    const stores = pools2.map((p) => new PostgresWaitlistStore(p));
    const now = Date.now();
    const work: Promise<unknown>[] = [];
    for (let i = 0; i < 600; i += 1) {
      const store = stores[i % 2];
      const at = iso(now - (i % 50) * HOUR_MS - i);
      if (i % 5 === 4) work.push(store.erase(`p${(i * 7) % 40}@example.com`));
      else if (i % 5 === 3) work.push(store.upsert({ email: `p${i % 40}@example.com`, consent: true, role: ROLES[i % ROLES.length], lang: LANGS[i % 2] }, 'json', at));
      else work.push(store.upsert({ email: `n${i}@example.com`, consent: true, building: BUILDING[i % BUILDING.length], source: SOURCES[i % 2] }, 'form', at));
    }
    await Promise.all(work);
    const result = await verifyCommand(url);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const report = JSON.parse(result.stdout) as { stats: { total: number }; records: number; differences: unknown[] };
    expect(report.differences).toEqual([]);
    expect(report.records).toBe((await records(pools2[1])).length);
    expect(report.stats.total).toBe(report.records);
  }, 60_000);

  it('stats --verify: a count changed behind the triggers\' back is named, exit 1', async () => {
    const url = await engine.createDatabase();
    const reader = await pool(url);
    await migrateSchema(reader);
    await new PostgresWaitlistStore(reader).upsert({ email: 'a@example.com', consent: true, role: 'data' }, 'json', iso(Date.now()));
    await reader.query(`UPDATE stats_answers SET n = n + 2 WHERE field = 'role' AND value = 'data'`);
    const result = await verifyCommand(url);
    expect(result.code).toBe(1);
    const report = JSON.parse(result.stdout) as { differences: { count: string }[] };
    expect(report.differences.map((d) => d.count).sort()).toEqual(['byRole.data']);
    expect(result.stderr).toMatch(/^The statistics differ from the records in .*byRole\.data/);
  });

  it('migrate from JSON: the counters equal the file\'s statistics, also after a second run merges a newer sign-up', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'stats-migrate-'));
    dirs.push(dir);
    const json = await JsonWaitlistStore.open(dir);
    const writes: Promise<unknown>[] = [];
    for (let i = 0; i < 3000; i += 1) {
      const answers = { role: i % 4 ? ROLES[i % ROLES.length] : undefined, building: i % 3 ? BUILDING[i % BUILDING.length] : undefined, source: i % 5 ? SOURCES[i % 2] : undefined };
      writes.push(json.upsert({ email: `m${i % 2500}@example.com`, consent: true, lang: LANGS[i % 2], ...answers }, 'json', iso(BASE - (3000 - i) * 17 * 60_000)));
    }
    await Promise.all(writes);
    const fileStats = await json.stats(BASE);
    await json.close();
    const url = await engine.createDatabase();
    const target = await pool(url);
    await migrateToPostgres(target, await readJsonDataDir(dir));
    const store = new PostgresWaitlistStore(target);
    expect(await store.stats(BASE)).toEqual(fileStats);
    await store.upsert({ email: 'm1@example.com', consent: true, role: 'founder' }, 'json', iso(BASE));
    await migrateToPostgres(target, await readJsonDataDir(dir));
    const all = await records(target);
    for (const now of [BASE, BASE + 6 * DAY_MS + 1]) expect(await store.stats(now)).toEqual(computeStats(all, now));
    // m1 answered 'platform' in the file; the newer sign-up's 'founder' stays.
    const after = await store.stats(BASE);
    expect([after.total, after.byRole.founder, after.byRole.platform]).toEqual([fileStats.total, fileStats.byRole.founder + 1, fileStats.byRole.platform - 1]);
  });
});
