/**
 * A pool that is full (slow statements hold every connection) must not queue requests without
 * bound: each waits at most DATABASE_POOL_WAIT_MS, then answers the contract's 500 internal_error;
 * the overload is one log line, not one per request, and is no outage (readiness stays ready).
 * A server that falls silent (every process stopped, as in a network partition): statements in
 * flight answer when the pool's query timeout gives them up, about two seconds; once the engine
 * counts as away, later ones answer at once.
 */
import pg from 'pg';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { API_PATHS } from '../../api/contract/index.ts';
import { createApp } from '../../api/sidecar/app.ts';
import { systemClock } from '../../api/sidecar/deps.ts';
import type { Backend } from '../../api/sidecar/store/backend.ts';
import { openBackend } from '../../api/sidecar/store/open-backend.ts';
import { postgresBinDir, startPostgres, type PostgresEngine } from '../support/engines/postgres.ts';
import { describeWithEngine } from '../support/engines/require.ts';
import { childPids } from '../support/stack.ts';
import { CapturingLogger, testConfig } from './support/harness.ts';

const POOL = 2;
const WAIT_MS = 200;

describeWithEngine('PostgreSQL', postgresBinDir(), 'a full PostgreSQL pool', () => {
  let engine: PostgresEngine;
  let url: string;
  let backend: Backend;
  const logger = new CapturingLogger();

  beforeAll(async () => {
    engine = await startPostgres();
    url = await engine.createDatabase();
    const config = testConfig({ DATABASE_URL: url, DATABASE_POOL_SIZE: String(POOL), DATABASE_POOL_WAIT_MS: String(WAIT_MS) });
    backend = await openBackend(config, { logger });
  });
  afterAll(async () => {
    await backend?.close();
    await engine?.stop();
  });

  let built: ReturnType<typeof createApp> | undefined;
  const app = () => (built ??= createApp({ store: backend.store, clock: systemClock, keys: backend.keys, clients: backend.clients, config: testConfig({ DATABASE_URL: url }), logger }));
  async function signUp(email: string) {
    const started = performance.now();
    const res = await app().request(API_PATHS.waitlist, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, consent: true }),
    });
    const body = res.ok ? undefined : ((await res.json()) as { error: string }).error;
    return { status: res.status, body, ms: performance.now() - started };
  }

  it('pool: with every connection held by a slow statement a sign-up waits at most DATABASE_POOL_WAIT_MS, then 500 internal_error; none hangs; one log line; still ready', async () => {
    // Slow statements: the table is locked, so the sign-ups that got a connection wait on the lock.
    const locker = new pg.Client({ connectionString: url });
    await locker.connect();
    await locker.query('BEGIN');
    await locker.query('LOCK TABLE waitlist IN ACCESS EXCLUSIVE MODE');
    const holders = Array.from({ length: POOL }, (_, i) => signUp(`slow-${i}@example.org`));
    await new Promise((resolve) => setTimeout(resolve, 100));
    const waiters = await Promise.all(Array.from({ length: 6 }, (_, i) => signUp(`waiting-${i}@example.org`)));
    await locker.query('COMMIT');
    await locker.end();

    for (const answer of waiters) {
      expect([answer.status, answer.body]).toEqual([500, 'internal_error']);
      expect(answer.ms).toBeGreaterThanOrEqual(WAIT_MS - 20);
      expect(answer.ms).toBeLessThan(1000);
    }
    // The slow ones finish once their statement can: nothing hangs, nothing is lost.
    for (const answer of await Promise.all(holders)) expect(answer.status).toBeLessThan(300);
    expect(logger.lines.filter((line) => line.includes('no connection free within 200 ms'))).toHaveLength(1);
    expect(logger.lines.filter((line) => /error id|unavailable/.test(line))).toEqual([]);
    expect(backend.health.state()).toMatchObject({ engine: 'postgres', state: 'up' });
    expect((await signUp('after@example.org')).status).toBeLessThan(300);
  });

  it('partition: with every PostgreSQL process stopped, statements in flight answer 500 within about 2 s, later ones within 1 s; back within 2 s of SIGCONT', async () => {
    expect((await signUp('warm@example.org')).status).toBeLessThan(300);
    const pids = [engine.pid, ...(await childPids(engine.pid))];
    // A backend may end between the listing and the signal (the pool closes an idle connection):
    // a process that is gone needs no stopping.
    const signal = (name: NodeJS.Signals) =>
      pids.forEach((pid) => {
        try {
          process.kill(pid, name);
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code !== 'ESRCH') throw error;
        }
      });
    try {
      signal('SIGSTOP');
      const inFlight = await Promise.all(Array.from({ length: 3 }, (_, i) => signUp(`silent-${i}@example.org`)));
      for (const answer of inFlight) {
        expect([answer.status, answer.body]).toEqual([500, 'internal_error']);
        expect(answer.ms).toBeLessThan(2500);
      }
      await vi.waitFor(() => expect(backend.health.up).toBe(false), { timeout: 2500, interval: 20 });
      for (const answer of await Promise.all([signUp('later-1@example.org'), signUp('later-2@example.org')])) {
        expect([answer.status, answer.body, answer.ms < 1000]).toEqual([500, 'internal_error', true]);
      }
    } finally {
      signal('SIGCONT');
    }
    const resumed = performance.now();
    await vi.waitFor(() => expect(backend.health.up).toBe(true), { timeout: 2000, interval: 20 });
    expect(performance.now() - resumed).toBeLessThan(2000);
    expect((await signUp('back@example.org')).status).toBeLessThan(300);
  });
});
