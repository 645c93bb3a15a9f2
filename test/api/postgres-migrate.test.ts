/**
 * The migration from the JSON data directory to PostgreSQL in one command:
 * waitlist, clients and keys in one transaction, compared, safe to run again, never undoing a
 * newer row; the export of both stores is then the same. Skipped by name without PostgreSQL.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { hashSecret, type ClientRecord } from '../../api/sidecar/domain/clients.ts';
import type { WaitlistRecord } from '../../api/sidecar/domain/record.ts';
import { clientsPath, writeClients } from '../../api/sidecar/store/json/clients-file.ts';
import { loadOrCreateKeys } from '../../api/sidecar/store/json/keys-file.ts';
import { JsonWaitlistStore } from '../../api/sidecar/store/json/waitlist-store.ts';
import { PostgresClients } from '../../api/sidecar/store/postgres/clients.ts';
import { loadOrCreateSharedKeys } from '../../api/sidecar/store/postgres/keys.ts';
import { migrateToPostgres, readJsonDataDir, reportLines } from '../../api/sidecar/store/postgres/migrate.ts';
import { openPool } from '../../api/sidecar/store/postgres/pool.ts';
import { PostgresWaitlistStore } from '../../api/sidecar/store/postgres/waitlist-store.ts';
import type { WaitlistStore } from '../../api/sidecar/store/waitlist-store.ts';
import { postgresBinDir, type PostgresEngine } from '../support/engines/postgres.ts';
import { sharedPostgres } from '../support/engines/shared.ts';
import { describeWithEngine } from '../support/engines/require.ts';
import { runCommand } from './support/cli.ts';
import { startSidecar } from './support/process.ts';

const T0 = Date.parse('2026-11-20T12:00:00.000Z');
const iso = (ms: number) => new Date(ms).toISOString();

async function exported(store: WaitlistStore): Promise<WaitlistRecord[]> {
  const records: WaitlistRecord[] = [];
  for await (const record of store.export()) records.push(record);
  return records;
}

/** The operator command as a real process with a clean environment plus `env`. */
const waitlistCommand = (env: Record<string, string>, ...args: string[]) => runCommand('scripts/waitlist.ts', args, env);

describeWithEngine('PostgreSQL', postgresBinDir(), 'migration to PostgreSQL', () => {
  let engine: PostgresEngine;
  let dir: string;
  let pool: pg.Pool;
  beforeAll(async () => {
    engine = await sharedPostgres();
    pool = await openPool(await engine.createSchema(), { max: 10 });
    dir = await mkdtemp(join(tmpdir(), 'migrate-'));
  });
  afterAll(async () => {
    await pool?.end();
    await engine?.stop();
    await rm(dir, { recursive: true, force: true });
  });

  it('migrate: copies records, clients and keys, prints the compared counts, runs again safely and never undoes a newer row', async () => {
    const json = await JsonWaitlistStore.open(dir);
    const n = 4500; // more than two insert batches
    for (let i = 0; i < n; i += 1) {
      void json.upsert({ email: `p${i}@example.com`, consent: true, lang: i % 3 ? 'en' : 'de', role: i % 2 ? 'data' : undefined }, 'json', iso(T0 + i));
    }
    await json.upsert({ email: 'p0@example.com', consent: true, source: 'cta' }, 'form', iso(T0 + n));
    const client: ClientRecord = { id: 'client-1', name: 'Beta', createdAt: iso(T0), scopes: ['waitlist:stats:read'], secretHash: await hashSecret('secret-1') };
    await writeClients(clientsPath(dir), [client]);
    const fileKeys = await loadOrCreateKeys(dir, {});
    const jsonRecords = await exported(json);
    await json.close();

    const first = await migrateToPostgres(pool, await readJsonDataDir(dir));
    expect(first.waitlist).toEqual({ source: n, inserted: n, updated: 0, unchanged: 0, inDatabase: n, matched: n });
    expect(first.clients).toEqual({ source: 1, inserted: 1, matched: 1 });
    expect(first.keys).toEqual({ source: 2, inserted: 2, matched: 2, differing: [] });
    expect(reportLines(first)[0]).toBe(`waitlist: ${n} records in the file, ${n} of them in the database (${n} inserted, 0 updated, 0 unchanged); ${n} rows in the database`);

    const postgres = new PostgresWaitlistStore(pool);
    expect(await exported(postgres)).toEqual(jsonRecords);
    expect(await new PostgresClients(pool).authenticate('client-1', 'secret-1')).toEqual({ id: 'client-1', scopes: ['waitlist:stats:read'] });
    expect(await loadOrCreateSharedKeys(pool, {})).toEqual(fileKeys);

    // After the switch a person signs up again on PostgreSQL; a second run keeps that newer row.
    await postgres.upsert({ email: 'p1@example.com', consent: true, building: 'rag' }, 'json', iso(T0 + 10 * n));
    const newer = await postgres.show('p1@example.com');
    const second = await migrateToPostgres(pool, await readJsonDataDir(dir));
    expect(second.waitlist).toEqual({ source: n, inserted: 0, updated: 0, unchanged: n, inDatabase: n, matched: n });
    expect(second.clients).toEqual({ source: 1, inserted: 0, matched: 1 });
    expect(second.keys).toMatchObject({ inserted: 0, matched: 2 });
    expect(await postgres.show('p1@example.com')).toEqual(newer);
  });

  it('migrate: an address already signed up on PostgreSQL is merged as its two histories would be (earlier first sign-up, older answers kept, newer consent)', async () => {
    const other = await openPool(await engine.createSchema(), { max: 2 });
    try {
      await migrateToPostgres(other, { records: [], clients: [], keys: {} });
      const postgres = new PostgresWaitlistStore(other);
      await postgres.upsert({ email: 'early@example.com', consent: true, source: 'cta' }, 'form', iso(T0 + 5000));
      const fromFile: WaitlistRecord = {
        email: 'early@example.com',
        createdAt: iso(T0),
        consentAt: iso(T0 + 1000),
        updatedAt: iso(T0 + 1000),
        lang: 'de',
        role: 'data',
        source: 'hero',
        consent: { form: 'hero', channel: 'json', lang: 'de', textVersion: 'v1' },
      };
      const report = await migrateToPostgres(other, { records: [fromFile], clients: [], keys: {} });
      expect(report.waitlist).toMatchObject({ inserted: 0, updated: 1, unchanged: 0, matched: 1 });
      const merged = await postgres.show('early@example.com');
      expect(merged).toMatchObject({ createdAt: iso(T0), consentAt: iso(T0 + 5000), updatedAt: iso(T0 + 5000), lang: 'en', role: 'data', source: 'cta' });
      expect(merged!.consent.form).toBe('cta');
      expect((await migrateToPostgres(other, { records: [fromFile], clients: [], keys: {} })).waitlist).toMatchObject({ updated: 0, unchanged: 1 });
    } finally {
      await other.end();
    }
  });

  it('migrate: a failure part-way (a duplicate address in the source) rolls back everything', async () => {
    const other = await openPool(await engine.createSchema(), { max: 10 });
    try {
      const record = (email: string): WaitlistRecord => ({
        email,
        createdAt: iso(T0),
        consentAt: iso(T0),
        updatedAt: iso(T0),
        lang: 'en',
        consent: { form: 'api', channel: 'json', lang: 'en', textVersion: 'v1' },
      });
      // The same address twice in one source is refused by the database; nothing stays behind.
      const source = { records: [record('a@example.com'), record('a@example.com')], clients: [], keys: {} };
      await expect(migrateToPostgres(other, source)).rejects.toThrow();
      expect((await other.query('SELECT count(*)::int AS n FROM waitlist')).rows[0].n).toBe(0);
    } finally {
      await other.end();
    }
  });

  it('migrate: `npm run waitlist -- migrate --to URL` prints the compared counts; export prints the same lines from both stores; show, erase and count work on PostgreSQL', async () => {
    const source = await mkdtemp(join(tmpdir(), 'migrate-cli-'));
    try {
      const json = await JsonWaitlistStore.open(source);
      await json.upsert({ email: 'ada@example.com', consent: true, role: 'data', lang: 'de' }, 'form', iso(T0));
      await json.upsert({ email: 'bob@example.com', consent: true }, 'json', iso(T0 + 1000));
      await json.close();
      const url = await engine.createSchema();
      const run = await waitlistCommand({ DATA_DIR: source }, 'migrate', '--to', url);
      expect([run.code, run.stderr]).toEqual([0, '']);
      expect(run.stdout).toContain('waitlist: 2 records in the file, 2 of them in the database (2 inserted, 0 updated');
      expect(run.stdout).toContain('clients: 0 in the file, 0 in the database');
      expect(run.stdout).toContain('token keys: 0 generated in the file');
      const onPostgres = { DATA_DIR: source, DATABASE_URL: url };
      const fromJson = await waitlistCommand({ DATA_DIR: source }, 'export');
      const fromPostgres = await waitlistCommand(onPostgres, 'export');
      expect(fromPostgres).toEqual(fromJson);
      const lines = fromJson.stdout.trim().split('\n');
      expect(lines.length).toBe(2);
      const shown = await waitlistCommand(onPostgres, 'show', '--json', 'ADA@example.com');
      expect([shown.code, shown.stdout.trim()]).toEqual([0, lines.find((line) => line.includes('"ada@example.com"'))]);
      expect((await waitlistCommand(onPostgres, 'erase', 'ada@example.com')).code).toBe(0);
      expect((await waitlistCommand(onPostgres, 'count')).stdout.trim()).toBe('1');
    } finally {
      await rm(source, { recursive: true, force: true });
    }
  }, 60_000);

  it('migrate: without --to, or with a URL that is not PostgreSQL, it is a usage error; an unreachable database is one paragraph', async () => {
    for (const args of [[], ['--to', 'mysql://u@h/db']]) {
      const wrong = await waitlistCommand({ DATA_DIR: dir }, 'migrate', ...args);
      expect([wrong.code, wrong.stdout]).toEqual([2, '']);
      expect(wrong.stderr).toContain('--to must be a PostgreSQL URL');
    }
    const unreachable = await waitlistCommand({ DATA_DIR: dir }, 'migrate', '--to', 'postgres://u:s3cret@127.0.0.1:1/db');
    expect(unreachable.code).toBe(1);
    expect(unreachable.stderr).toMatch(/^The PostgreSQL database at postgres:\/\/u:\*\*\*@127\.0\.0\.1:1\/db \(--to\) cannot be reached/);
    expect(unreachable.stderr).not.toContain('s3cret');
  });

  it('migrate: while a JSON sidecar runs on DATA_DIR it copies the last commit and warns that later sign-ups need a second run', async () => {
    const source = await mkdtemp(join(tmpdir(), 'migrate-live-'));
    const sidecar = await startSidecar({ DATA_DIR: source, SIDECAR_LISTEN: 'tcp' });
    try {
      const signup = await fetch(`${sidecar.url}/api/v1/waitlist`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'live@example.com', consent: true }),
      });
      expect(signup.status).toBe(200);
      const run = await waitlistCommand({ DATA_DIR: source }, 'migrate', '--to', await engine.createSchema());
      expect(run.code).toBe(0);
      expect(run.stderr).toContain(`warning: a JSON sidecar (process ${sidecar.child.pid}) is using ${source}`);
      expect(run.stdout).toContain('waitlist: 1 records in the file, 1 of them in the database');
    } finally {
      sidecar.child.kill('SIGTERM');
      await sidecar.exited;
      await rm(source, { recursive: true, force: true });
    }
  }, 60_000);
});
