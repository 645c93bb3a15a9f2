/**
 * Statistics are never stale, on either engine: a sign-up acknowledged by any instance is in the
 * very next statistics answer of that instance and of every other one (PostgreSQL: a second
 * instance on the same database; JSON, where one sidecar is the only writer: the operator's
 * `npm run waitlist -- stats`). Repeats that change an answer and erasures show at once too.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_PATHS, WaitlistStats, type Lang } from '../../api/contract/index.ts';
import { createApp } from '../../api/sidecar/app.ts';
import { openBackend } from '../../api/sidecar/store/open-backend.ts';
import { openPool } from '../../api/sidecar/store/postgres/pool.ts';
import { VACUUM_AFTER_ROWS } from '../../api/sidecar/store/postgres/stats-pending.ts';
import type { Backend } from '../../api/sidecar/store/backend.ts';
import { send, type Requestable } from '../support/request.ts';
import { postgresBinDir } from '../support/engines/postgres.ts';
import { describeWithEngine } from '../support/engines/require.ts';
import { usePostgres } from './support/backends.ts';
import { runCommand } from './support/cli.ts';
import { CapturingLogger, clientRecord, harness, ManualClock, testConfig, type Harness } from './support/harness.ts';
import { issueToken, jsonPost } from './support/requests.ts';

const signUp = (app: Requestable, email: string, answers: Record<string, string> = {}) =>
  send(app, API_PATHS.waitlist, jsonPost({ email, consent: true, ...answers }));

async function statsOf(app: Requestable, token: string): Promise<WaitlistStats> {
  const res = await send(app, API_PATHS.stats, { headers: { authorization: `Bearer ${token}` } });
  expect(res.status).toBe(200);
  return WaitlistStats.parse(res.body);
}

describeWithEngine('PostgreSQL', postgresBinDir(), 'statistics are never stale (PostgreSQL store, two instances)', () => {
  const engine = usePostgres();
  const backends: Backend[] = [];
  afterAll(async () => {
    for (const backend of backends) await backend.close();
  });

  it('stats: a sign-up on either instance is in the very next answer of both; a changed answer and an erasure too', async () => {
    const url = await engine().createSchema();
    const config = testConfig({ DATABASE_URL: url });
    const clock = new ManualClock();
    const client = await clientRecord('dashboard');
    const apps: Requestable[] = [];
    for (let i = 0; i < 2; i += 1) {
      const backend = await openBackend(config);
      backends.push(backend);
      if (i === 0) await backend.clients.create(client.record);
      apps.push(createApp({ store: backend.store, clock, keys: backend.keys, clients: backend.clients, config, logger: new CapturingLogger() }));
    }
    const [a, b] = apps;
    const token = (await issueToken(a, 'production', client.id, client.secret)).body.access_token as string;
    const both = async () => [await statsOf(a, token), await statsOf(b, token)];

    // Polled first: an answer cached anywhere would now be the stale one.
    for (const stats of await both()) expect(stats.total).toBe(0);
    expect((await signUp(a, 'ada@example.com', { role: 'data', lang: 'de' })).status).toBe(200);
    for (const stats of await both()) expect([stats.total, stats.last7Days, stats.byRole.data, stats.byLang.de]).toEqual([1, 1, 1, 1]);
    expect((await signUp(b, 'bob@example.com')).status).toBe(200);
    for (const stats of await both()) expect([stats.total, stats.byRole.unanswered]).toEqual([2, 1]);
    expect((await signUp(b, 'ada@example.com', { role: 'founder' })).status).toBe(200);
    for (const stats of await both()) expect([stats.total, stats.byRole.data, stats.byRole.founder]).toEqual([2, 0, 1]);
    expect(await backends[1].store.erase('ada@example.com')).toBe(true);
    for (const stats of await both()) expect([stats.total, stats.byRole.founder, stats.byLang.de]).toEqual([1, 0, 0]);
  });

  it('stats: calls made while a statistics query runs share the next query, which holds every sign-up acknowledged before them', async () => {
    const url = await engine().createSchema();
    const backend = await openBackend(testConfig({ DATABASE_URL: url }));
    backends.push(backend);
    const { store } = backend;
    await store.upsert({ email: 'ada@example.com', consent: true }, 'json', new Date().toISOString());
    const [locker, reader] = [await openPool(url, { max: 1 }), await openPool(url, { max: 1 })];
    const holder = await locker.connect();
    try {
      // The first query waits behind a lock on the counters, so it is still running below.
      await holder.query('BEGIN');
      await holder.query('LOCK TABLE stats_answers IN ACCESS EXCLUSIVE MODE');
      const first = store.stats(Date.parse('2026-11-25T12:00:00.000Z'));
      const waiting = async () => Number((await reader.query<{ n: string }>(`SELECT count(*) AS n FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND query LIKE '%stats_answers%'`)).rows[0].n);
      await expect.poll(waiting, { timeout: 10_000 }).toBeGreaterThan(0);
      // Acknowledged while it runs: the pending row is appended, the counters are not touched.
      await store.upsert({ email: 'bob@example.com', consent: true, role: 'data' }, 'json', new Date().toISOString());
      const later = [store.stats(Date.parse('2026-11-25T12:00:01.000Z')), store.stats(Date.parse('2026-11-25T12:00:02.000Z'))];
      await holder.query('ROLLBACK');
      expect((await first).total).toBeGreaterThanOrEqual(1);
      const [b, c] = await Promise.all(later);
      expect([b.total, b.byRole.data]).toEqual([2, 1]);
      // One query answered both, for the later of their times.
      expect(c).toBe(b);
      expect(b.computedAt).toBe('2026-11-25T12:00:02.000Z');
    } finally {
      holder.release();
      await Promise.all([locker.end(), reader.end()]);
    }
  });

  it('stats: each open instance folds the pending changes into the counters within seconds, and the answers stay the same', async () => {
    const url = await engine().createSchema();
    const config = testConfig({ DATABASE_URL: url });
    const backend = await openBackend(config);
    backends.push(backend);
    const app = createApp({ store: backend.store, clock: new ManualClock(), keys: backend.keys, clients: backend.clients, config, logger: new CapturingLogger() });
    for (const email of ['ada@example.com', 'bob@example.com', 'cy@example.com']) expect((await signUp(app, email, { role: 'data' })).status).toBe(200);
    const reader = await openPool(url, { max: 1 });
    try {
      const pending = async () => Number((await reader.query<{ n: string }>('SELECT count(*) AS n FROM stats_pending')).rows[0].n);
      const answer = await backend.store.stats(Date.now());
      expect(answer.total).toBe(3);
      const deadline = Date.now() + 15_000;
      while ((await pending()) > 0 && Date.now() < deadline) await new Promise((done) => setTimeout(done, 100));
      expect(await pending()).toBe(0);
      expect(Number((await reader.query<{ n: string }>(`SELECT sum(n) AS n FROM stats_answers WHERE role = 'data'`)).rows[0].n)).toBe(3);
      expect(await backend.store.stats(Date.parse(answer.computedAt))).toEqual(answer);
    } finally {
      await reader.end();
    }
  });

  it('stats: an open instance vacuums the pending changes\' table once it has folded enough of them, so their dead rows do not pile up for every answer to read', async () => {
    const url = await engine().createSchema();
    const backend = await openBackend(testConfig({ DATABASE_URL: url }));
    backends.push(backend);
    const reader = await openPool(url, { max: 1 });
    try {
      const vacuums = async () => Number((await reader.query<{ n: string }>(`SELECT vacuum_count AS n FROM pg_stat_user_tables WHERE relid = 'stats_pending'::regclass`)).rows[0].n);
      expect(await vacuums()).toBe(0);
      // Written in SQL: the triggers append one pending row per record, as for sign-ups.
      await reader.query(
        `INSERT INTO waitlist SELECT 'v' || i || '@example.com', now(), now(), now(), 'en', NULL, NULL, NULL, 'hero', 'form', 'en', 'v1'
         FROM generate_series(1, $1::int) AS i`,
        [VACUUM_AFTER_ROWS],
      );
      const deadline = Date.now() + 20_000;
      while ((await vacuums()) === 0 && Date.now() < deadline) await new Promise((done) => setTimeout(done, 100));
      expect(await vacuums()).toBeGreaterThan(0);
      expect((await backend.store.stats(Date.now())).total).toBe(VACUUM_AFTER_ROWS);
    } finally {
      await reader.end();
    }
  });
});

describe('statistics are never stale (JSON store, the sidecar and the operator command)', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await harness();
  });
  afterAll(() => h.close());

  it('stats: a sign-up is in the very next answer of the API and of `npm run waitlist -- stats`; a changed answer too', async () => {
    const token = (await issueToken(h.app, 'production', h.client.id, h.client.secret)).body.access_token as string;
    const operator = async () => {
      const result = await runCommand('scripts/waitlist.ts', ['stats', '--json'], { DATA_DIR: h.dir });
      expect([result.code, result.stderr]).toEqual([0, '']);
      return WaitlistStats.parse(JSON.parse(result.stdout));
    };
    expect((await statsOf(h.app, token)).total).toBe(0);
    expect((await signUp(h.app, 'ada@example.com', { role: 'data', lang: 'de' as Lang })).status).toBe(200);
    const first = await statsOf(h.app, token);
    expect([first.total, first.byRole.data]).toEqual([1, 1]);
    const seen = await operator();
    expect([seen.total, seen.byLang.de]).toEqual([1, 1]);
    expect((await signUp(h.app, 'ada@example.com', { role: 'founder' })).status).toBe(200);
    const api = await statsOf(h.app, token);
    expect([api.byRole.data, api.byRole.founder]).toEqual([0, 1]);
    const cli = await operator();
    expect([cli.byRole.data, cli.byRole.founder]).toEqual([0, 1]);
  });
});
