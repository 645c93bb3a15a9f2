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
import { migrateSchema } from '../../api/sidecar/store/postgres/schema.ts';
import { PostgresWaitlistStore } from '../../api/sidecar/store/postgres/waitlist-store.ts';
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
    const [here, there] = [await openPool(url, { max: 1 }), await openPool(url, { max: 1 })];
    await migrateSchema(here);
    const store = new PostgresWaitlistStore(here);
    await store.upsert({ email: 'ada@example.com', consent: true }, 'json', new Date().toISOString());
    // The first query waits for the pool's only connection, so it is still running below.
    const held = await here.connect();
    try {
      const first = store.stats(Date.parse('2026-11-25T12:00:00.000Z'));
      // Acknowledged by another instance while it runs.
      await new PostgresWaitlistStore(there).upsert({ email: 'bob@example.com', consent: true, role: 'data' }, 'json', new Date().toISOString());
      const later = [store.stats(Date.parse('2026-11-25T12:00:01.000Z')), store.stats(Date.parse('2026-11-25T12:00:02.000Z'))];
      held.release();
      expect((await first).total).toBeGreaterThanOrEqual(1);
      const [b, c] = await Promise.all(later);
      expect([b.total, b.byRole.data]).toEqual([2, 1]);
      // One query answered both, for the later of their times.
      expect(c).toBe(b);
      expect(b.computedAt).toBe('2026-11-25T12:00:02.000Z');
    } finally {
      await Promise.all([here.end(), there.end()]);
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
