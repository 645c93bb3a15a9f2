/**
 * The PostgreSQL backend's parts against a real throwaway server: schema under an
 * advisory lock, the merge rule of a repeated address (the same records as the JSON store's),
 * concurrency, statistics without a cache, export, erasure, and clients and keys shared by two
 * instances. Skipped by name without PostgreSQL.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUILDING, LANGS, ROLES, SOURCES, type WaitlistSignup } from '../../api/contract/index.ts';
import { hashSecret, newClientId, newClientSecret, type ClientRecord } from '../../api/sidecar/domain/clients.ts';
import type { WaitlistRecord } from '../../api/sidecar/domain/record.ts';
import { computeStats } from '../../api/sidecar/domain/stats.ts';
import { JsonWaitlistStore } from '../../api/sidecar/store/json/waitlist-store.ts';
import { PostgresClients } from '../../api/sidecar/store/postgres/clients.ts';
import { loadOrCreateSharedKeys } from '../../api/sidecar/store/postgres/keys.ts';
import { openPool } from '../../api/sidecar/store/postgres/pool.ts';
import { migrateSchema, SCHEMA_VERSION } from '../../api/sidecar/store/postgres/schema.ts';
import { PostgresWaitlistStore } from '../../api/sidecar/store/postgres/waitlist-store.ts';
import { postgresBinDir, type PostgresEngine } from '../support/engines/postgres.ts';
import { sharedPostgres } from '../support/engines/shared.ts';
import { describeWithEngine } from '../support/engines/require.ts';

const T0 = Date.parse('2026-11-20T12:00:00.000Z');
const iso = (ms: number) => new Date(ms).toISOString();

async function clientRecord(name: string) {
  const id = newClientId();
  const secret = newClientSecret();
  const record: ClientRecord = { id, name, createdAt: iso(T0), scopes: ['waitlist:stats:read'], secretHash: await hashSecret(secret) };
  return { id, secret, record };
}

describeWithEngine('PostgreSQL', postgresBinDir(), 'PostgreSQL store', () => {
  let engine: PostgresEngine;
  const pools: pg.Pool[] = [];
  /** A pool on a fresh schema with the tables in place. */
  async function freshDatabase(): Promise<{ url: string; pool: pg.Pool }> {
    const url = await engine.createSchema();
    const pool = await openPool(url, { max: 10 });
    pools.push(pool);
    await migrateSchema(pool);
    return { url, pool };
  }
  async function anotherPool(url: string): Promise<pg.Pool> {
    const pool = await openPool(url, { max: 10 });
    pools.push(pool);
    return pool;
  }
  const all = async (store: PostgresWaitlistStore, filter = {}) => {
    const records: WaitlistRecord[] = [];
    for await (const record of store.export(filter)) records.push(record);
    return records;
  };

  beforeAll(async () => {
    engine = await sharedPostgres();
  });
  afterAll(async () => {
    await Promise.all(pools.map((pool) => pool.end()));
    await engine?.stop();
  });

  it('schema: five instances starting together create it once (advisory lock), and a restart changes nothing', async () => {
    const url = await engine.createSchema();
    const starters = await Promise.all(Array.from({ length: 5 }, () => anotherPool(url)));
    const found = await Promise.all(starters.map((pool) => migrateSchema(pool)));
    expect(found.sort()).toEqual([0, SCHEMA_VERSION, SCHEMA_VERSION, SCHEMA_VERSION, SCHEMA_VERSION]);
    expect(await migrateSchema(starters[0])).toBe(SCHEMA_VERSION);
    const { rows } = await starters[0].query('SELECT version FROM schema_version ORDER BY version');
    expect(rows).toEqual([{ version: SCHEMA_VERSION }]);
  });

  it('schema: a database of a newer release stops the start with one paragraph', async () => {
    const { pool } = await freshDatabase();
    await pool.query('INSERT INTO schema_version (version) VALUES ($1)', [SCHEMA_VERSION + 1]);
    await expect(migrateSchema(pool)).rejects.toThrow(/newer than this program's/);
  });

  it('start: an unreachable database stops the start with one paragraph naming DATABASE_URL, without the password', async () => {
    const error = await openPool('postgres://waitlist:s3cret@127.0.0.1:1/waitlist', { max: 1 }).catch((e: Error) => e);
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).name).toBe('StartupError');
    expect((error as Error).message).toMatch(/DATABASE_URL.*cannot be reached.*Check that the server is running/s);
    expect((error as Error).message).not.toContain('s3cret');
    expect((error as Error).message).not.toContain('\n');
  });

  it('upsert: any sequence of sign-ups leaves the same record in PostgreSQL as in the JSON store (new answers win, absent keep, created_at stays, consent evidence of the latest)', async () => {
    const { pool } = await freshDatabase();
    const postgres = new PostgresWaitlistStore(pool);
    const dir = await mkdtemp(join(tmpdir(), 'merge-json-'));
    const json = await JsonWaitlistStore.open(dir);
    const optional = <T>(values: readonly T[]) => fc.option(fc.constantFrom(...values), { nil: undefined });
    const signup = fc.record({
      email: fc.constantFrom('a@example.com', 'b@example.com'),
      lang: optional(LANGS),
      role: optional(ROLES),
      building: optional(BUILDING),
      source: optional(SOURCES),
      channel: fc.constantFrom('json', 'form'),
    });
    let run = 0;
    try {
      await fc.assert(
        fc.asyncProperty(fc.array(signup, { minLength: 1, maxLength: 6 }), async (steps) => {
          run += 1;
          const emails = new Set<string>();
          for (const [i, { channel, ...fields }] of steps.entries()) {
            const email = `${run}-${fields.email}`;
            emails.add(email);
            const input = Object.fromEntries(Object.entries({ ...fields, email, consent: true }).filter(([, v]) => v !== undefined)) as WaitlistSignup;
            for (const store of [json, postgres]) await store.upsert(input, channel as 'json' | 'form', iso(T0 + i * 1000));
          }
          for (const email of emails) {
            const stored = await json.show(email);
            expect(stored).toBeDefined();
            expect(await postgres.show(email)).toEqual(stored);
          }
        }),
        { numRuns: 40 },
      );
    } finally {
      await json.close();
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('upsert: 20 concurrent sign-ups of one address on two instances make one row with every answer merged and the earliest first sign-up time', async () => {
    const { url, pool } = await freshDatabase();
    const stores = [new PostgresWaitlistStore(pool), new PostgresWaitlistStore(await anotherPool(url))];
    const answers: Partial<WaitlistSignup>[] = [{ role: 'data' }, { building: 'rag' }, { source: 'cta' }, { lang: 'de' }, {}];
    await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        stores[i % 2].upsert({ email: 'same@example.com', consent: true, ...answers[i % answers.length] } as WaitlistSignup, 'json', iso(T0 + i)),
      ),
    );
    expect(await stores[0].count()).toBe(1);
    const record = await stores[1].show('same@example.com');
    expect(record).toMatchObject({ email: 'same@example.com', role: 'data', building: 'rag', source: 'cta', lang: 'de', createdAt: iso(T0) });
  });

  it('stats: one query equals computeStats over the records at `now` (7 and 30 days by first sign-up)', async () => {
    const { pool } = await freshDatabase();
    const store = new PostgresWaitlistStore(pool);
    const day = 86_400_000;
    await store.upsert({ email: 'old@example.com', consent: true, role: 'founder', lang: 'de' }, 'form', iso(T0 - 20 * day));
    await store.upsert({ email: 'mid@example.com', consent: true, source: 'hero' }, 'json', iso(T0 - 7 * day));
    await store.upsert({ email: 'new@example.com', consent: true, building: 'agents' }, 'json', iso(T0 - day));
    await store.upsert({ email: 'old@example.com', consent: true, role: 'data' }, 'json', iso(T0));
    const stats = await store.stats(T0);
    expect(stats).toEqual(computeStats(await all(store), T0));
    expect([stats.total, stats.last7Days, stats.last30Days, stats.byRole.data, stats.byLang.de]).toEqual([3, 1, 3, 1, 1]);
  });

  it('stats: no cache: a write committed by another instance is in the very next answer', async () => {
    const { url, pool } = await freshDatabase();
    const here = new PostgresWaitlistStore(pool);
    const there = new PostgresWaitlistStore(await anotherPool(url));
    expect((await here.stats(T0)).total).toBe(0);
    await there.upsert({ email: 'a@example.com', consent: true, role: 'data' }, 'json', iso(T0));
    expect((await here.stats(T0)).byRole.data).toBe(1);
    await there.upsert({ email: 'a@example.com', consent: true, role: 'founder' }, 'json', iso(T0 + 1));
    expect([(await here.stats(T0 + 1)).byRole.data, (await here.stats(T0 + 1)).byRole.founder]).toEqual([0, 1]);
    await there.erase('a@example.com');
    expect(await here.stats(T0 + 2)).toEqual(computeStats([], T0 + 2));
  });

  it('export: every record in sign-up order through a cursor, filtered by lang and since; stopping early frees the connection', async () => {
    const url = await engine.createSchema();
    const pool = await openPool(url, { max: 1 });
    pools.push(pool);
    await migrateSchema(pool);
    const store = new PostgresWaitlistStore(pool);
    const n = 2500;
    await pool.query(
      `INSERT INTO waitlist SELECT 'p' || i || '@example.com', $1::timestamptz + i * interval '1 second', $1::timestamptz + i * interval '1 second',
         $1::timestamptz + i * interval '1 second', CASE WHEN i % 2 = 0 THEN 'de' ELSE 'en' END, NULL, NULL, NULL, 'api', 'json', 'en', 'v1'
       FROM generate_series(1, $2) AS i`,
      [iso(T0), n],
    );
    const records = await all(store);
    expect(records.length).toBe(n);
    expect(records.map((r) => r.email).slice(0, 3)).toEqual(['p1@example.com', 'p2@example.com', 'p3@example.com']);
    expect(records.every((r, i) => i === 0 || r.createdAt > records[i - 1].createdAt)).toBe(true);
    expect((await all(store, { lang: 'de' })).length).toBe(n / 2);
    expect((await all(store, { lang: 'en', since: iso(T0 + 2001 * 1000) })).map((r) => r.email)).toEqual(
      Array.from({ length: 250 }, (_, i) => `p${2001 + 2 * i}@example.com`),
    );
    for await (const record of store.export()) {
      expect(record.email).toBe('p1@example.com');
      break;
    }
    expect(await store.count()).toBe(n);
  });

  it('erase: the record is gone at once for every instance and erase says whether there was one', async () => {
    const { url, pool } = await freshDatabase();
    const here = new PostgresWaitlistStore(pool);
    const there = new PostgresWaitlistStore(await anotherPool(url));
    await here.upsert({ email: 'gone@example.com', consent: true }, 'json', iso(T0));
    expect(await there.erase('gone@example.com')).toBe(true);
    expect(await here.show('gone@example.com')).toBeUndefined();
    expect(await here.erase('gone@example.com')).toBe(false);
  });

  it('clients: a client created through one instance authenticates on another, and once deleted is refused on both', async () => {
    const { url, pool } = await freshDatabase();
    const a = new PostgresClients(pool);
    const b = new PostgresClients(await anotherPool(url));
    const client = await clientRecord('Beta');
    await a.create(client.record);
    await expect(a.create(client.record)).rejects.toThrow(/duplicate key/);
    expect(await b.authenticate(client.id, client.secret)).toEqual({ id: client.id, scopes: ['waitlist:stats:read'] });
    expect(await b.authenticate(client.id, 'wrong')).toBeUndefined();
    expect(await b.list()).toEqual([client.record]);
    expect(await b.delete(client.id)).toBe(true);
    expect(await a.authenticate(client.id, client.secret)).toBeUndefined();
    expect(await b.authenticate(client.id, client.secret)).toBeUndefined();
  });

  it('keys: two instances starting together get the same generated keys; TOKEN_KEY_* wins; equal keys stop the start', async () => {
    const { url, pool } = await freshDatabase();
    const other = await anotherPool(url);
    const [a, b] = await Promise.all([loadOrCreateSharedKeys(pool, {}), loadOrCreateSharedKeys(other, {})]);
    expect(Buffer.from(a.production).equals(Buffer.from(b.production))).toBe(true);
    expect(Buffer.from(a.sandbox).equals(Buffer.from(b.sandbox))).toBe(true);
    expect(Buffer.from(a.production).equals(Buffer.from(a.sandbox))).toBe(false);
    expect(a.production.length).toBe(32);
    const configured = new Uint8Array(32).fill(7);
    expect((await loadOrCreateSharedKeys(other, { TOKEN_KEY_PRODUCTION: configured })).production).toEqual(configured);
    await expect(loadOrCreateSharedKeys(other, { TOKEN_KEY_PRODUCTION: configured, TOKEN_KEY_SANDBOX: configured })).rejects.toThrow(/must differ/);
  });
});
