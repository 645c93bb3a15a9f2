/**
 * The statistics' counters on PostgreSQL (store/postgres/stats-schema.ts, stats-pending.ts) equal a
 * full recount (domain/stats.ts computeStats) after any writes of any writer: sign-ups, repeats
 * that change an answer or the first sign-up time, erasures, on two instances at once, with folds
 * of the pending changes at any moment, at window boundaries to the millisecond, and after the
 * schema steps that create and reshape them on a database with records while sign-ups continue. `npm run waitlist -- stats --verify` finds no difference. Skipped by name
 * without PostgreSQL.
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
import { readJsonDataDir } from '../../api/sidecar/store/postgres/json-source.ts';
import { migrateToPostgres } from '../../api/sidecar/store/postgres/migrate.ts';
import { openPool } from '../../api/sidecar/store/postgres/pool.ts';
import { migrateSchema, SCHEMA_VERSION } from '../../api/sidecar/store/postgres/schema.ts';
import { foldStats } from '../../api/sidecar/store/postgres/stats-pending.ts';
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
const fold = fc.record({ kind: fc.constant('fold' as const), instance: fc.integer({ min: 0, max: 1 }) });
const operations = fc.array(fc.oneof({ arbitrary: signup, weight: 4 }, { arbitrary: erase, weight: 1 }, { arbitrary: fold, weight: 1 }), { maxLength: 30 });

/** Question times: each window's edges around every record's first sign-up, its hour and its day, ±1 ms. */
function questionTimes(createdAts: number[]): number[] {
  const starts = createdAts.flatMap((t) => [t, Math.floor(t / HOUR_MS) * HOUR_MS, Math.floor(t / DAY_MS) * DAY_MS, (Math.floor(t / HOUR_MS) + 1) * HOUR_MS]);
  return [BASE, ...starts.flatMap((t) => [7, 30].flatMap((days) => [-1, 0, 1].map((ms) => t + days * DAY_MS + ms)))];
}

/**
 * Runs `step` while 4 lanes sign up without pause: new addresses with one role, and repeats of
 * `existing(lane, i)` that change theirs; at least 20 sign-ups before the step and 20 after it.
 */
async function whileSigningUp(store: PostgresWaitlistStore, existing: (lane: number, i: number) => string, step: () => Promise<void>): Promise<void> {
  let running = true;
  let written = 0;
  const signUps = Array.from({ length: 4 }, async (_, lane) => {
    for (let i = 0; running; i += 1) {
      const input = i % 2 ? { email: `live${lane}-${i}@example.com`, consent: true, role: 'founder' } : { email: existing(lane, i), consent: true, role: 'other' };
      await store.upsert(input as WaitlistSignup, 'json', iso(BASE - i * 1000));
      written += 1;
    }
  });
  const reach = async (n: number) => {
    while (written < n) await new Promise((done) => setTimeout(done, 5));
  };
  await reach(20);
  await step();
  await reach(written + 20);
  running = false;
  await Promise.all(signUps);
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

  it('stats counters: after random sign-ups, repeats, erasures and folds on two instances, every count equals a full recount at every window edge', async () => {
    const url = await engine.createDatabase();
    const [a, b] = [await pool(url), await pool(url)];
    await migrateSchema(a);
    const stores = [new PostgresWaitlistStore(a), new PostgresWaitlistStore(b)];
    await fc.assert(
      fc.asyncProperty(operations, async (ops) => {
        await a.query('TRUNCATE waitlist');
        for (const op of ops) {
          if (op.kind === 'erase') await stores[op.instance].erase(op.email);
          else if (op.kind === 'fold') await foldStats([a, b][op.instance]);
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
    expect(await foldStats(reader)).toBe(500);
    await reader.query(`UPDATE waitlist SET role = 'founder', created_at = created_at - interval '3 days' WHERE email LIKE 'sql1%'`);
    await reader.query(`DELETE FROM waitlist WHERE email LIKE 'sql2%'`);
    const all = await records(reader);
    expect(await store.stats(BASE)).toEqual(computeStats(all, BASE));
    await foldStats(reader);
    expect(await store.stats(BASE)).toEqual(computeStats(all, BASE));
    await reader.query('TRUNCATE waitlist');
    expect(await store.stats(BASE)).toEqual(computeStats([], BASE));
  });

  it('stats counters: concurrent sign-ups, repeats with changed answers, erasures and folds on two instances leave 0 differences (stats --verify)', async () => {
    const url = await engine.createDatabase();
    const pools2 = [await pool(url), await pool(url)];
    await migrateSchema(pools2[0]);
    const stores = pools2.map((p) => new PostgresWaitlistStore(p));
    const now = Date.now();
    const work: Promise<unknown>[] = [];
    for (let i = 0; i < 600; i += 1) {
      const store = stores[i % 2];
      const at = iso(now - (i % 50) * HOUR_MS - i);
      if (i % 10 === 9) work.push(foldStats(pools2[i % 2]));
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
    await foldStats(reader);
    await reader.query(`UPDATE stats_answers SET n = n + 2 WHERE role = 'data'`);
    const result = await verifyCommand(url);
    expect(result.code).toBe(1);
    const report = JSON.parse(result.stdout) as { differences: { count: string }[] };
    expect(report.differences.map((d) => d.count).sort()).toEqual(['byBuilding.unanswered', 'byLang.en', 'byRole.data', 'bySource.unanswered', 'total']);
    expect(result.stderr).toMatch(/^The statistics differ from the records in .*byRole\.data/);
  });

  it('schema version 2: a version-1 database with records gets exact counts while sign-ups continue, none counted twice or missed', async () => {
    const url = await engine.createDatabase();
    const [upgrader, writer] = [await pool(url), await pool(url)];
    await migrateSchema(upgrader, 1);
    await upgrader.query(
      `INSERT INTO waitlist SELECT 'seed' || i || '@example.com', t, t, t, CASE WHEN i % 3 = 0 THEN 'de' ELSE 'en' END,
         (ARRAY['developer', 'data', NULL])[1 + i % 3], (ARRAY['rag', NULL])[1 + i % 2], NULL, 'api', 'json', 'en', 'v1'
       FROM generate_series(1, 50000) AS i, LATERAL (SELECT $1::timestamptz - i * interval '61 seconds' AS t) AS times`,
      [iso(BASE)],
    );
    // New addresses, and repeats of seeded ones that change their role.
    await whileSigningUp(new PostgresWaitlistStore(writer), (lane, i) => `seed${lane * 1000 + i}@example.com`, async () => {
      expect(await migrateSchema(upgrader)).toBe(1);
    });
    const all = await records(upgrader);
    for (const now of [BASE, BASE + 3 * DAY_MS + 1, BASE + 20 * DAY_MS - 17]) {
      expect(await new PostgresWaitlistStore(upgrader).stats(now)).toEqual(computeStats(all, now));
    }
    expect((await upgrader.query('SELECT max(version) AS v FROM schema_version')).rows[0].v).toBe(SCHEMA_VERSION);
  }, 60_000);

  it('schema version 4: the counters of a version-3 database (one row per connection slot) become one row per key, exact while sign-ups continue', async () => {
    const url = await engine.createDatabase();
    const [upgrader, writer] = [await pool(url), await pool(url)];
    await migrateSchema(upgrader, 3);
    const store = new PostgresWaitlistStore(writer);
    // Concurrent sign-ups on several connections spread the version-3 counters over slots.
    await Promise.all(Array.from({ length: 200 }, (_, i) => store.upsert({ email: `old${i}@example.com`, consent: true, role: ROLES[i % ROLES.length] } as WaitlistSignup, 'json', iso(BASE - i * 600_000))));
    expect(Number((await upgrader.query('SELECT count(DISTINCT slot) AS n FROM stats_answers')).rows[0].n)).toBeGreaterThan(1);
    await whileSigningUp(store, (lane, i) => `old${(lane * 50 + i) % 200}@example.com`, async () => {
      expect(await migrateSchema(upgrader)).toBe(3);
    });
    const all = await records(upgrader);
    const reader = new PostgresWaitlistStore(upgrader);
    for (const now of [BASE, BASE + 6 * DAY_MS + 1]) expect(await reader.stats(now)).toEqual(computeStats(all, now));
    await foldStats(upgrader);
    for (const now of [BASE, BASE + 6 * DAY_MS + 1]) expect(await reader.stats(now)).toEqual(computeStats(all, now));
    const { rows } = await upgrader.query('SELECT count(*) AS n, count(DISTINCT (lang, role, building, source)) AS keys FROM stats_answers');
    expect(rows[0].n).toBe(rows[0].keys);
  }, 60_000);

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
