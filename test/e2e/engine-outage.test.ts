/**
 * Two instances (each a real front + sidecar) on one PostgreSQL and one Redis under a sign-up load,
 * while the engines fail as in production: PostgreSQL crashed (immediate shutdown) and started
 * again, Redis stopped and started again, then both at once. What must hold: every acknowledged
 * sign-up is in the database afterwards; every answer is a success or the contract's 500
 * internal_error within 1 s (none hangs); GET /readyz on the metrics listener turns not-ready
 * within 2 s of a failure that fails requests (PostgreSQL), stays ready naming Redis as degraded
 * while only Redis is away, and is ready within 2 s of the return; the log tells each outage in a
 * few lines, not one per failed request. On a machine so busy that even healthy answers are slow,
 * the 1 s bound is counted from the slowest healthy answer just before the failure (printed).
 */
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { afterAll, beforeAll, expect, inject, it } from 'vitest';
import { postgresBinDir } from '../support/engines/postgres.ts';
import { REDIS_BINARY, startRedis, type RedisEngine } from '../support/engines/redis.ts';
import { describeWithEngine } from '../support/engines/require.ts';
import { startRestartablePostgres, type RestartablePostgres } from '../support/engines/restartable-postgres.ts';
import { signUpLoad, type Answer } from '../support/sign-up-load.ts';
import { freePort, OWN_STACK_TIMEOUT_MS, startStacks, type RunningStack } from '../support/stack.ts';

const shared = inject('stack');
const both = postgresBinDir() && REDIS_BINARY ? 'found' : undefined;
/** How long each engine stays away: long enough for many failed requests and a few probes. */
const OUTAGE_MS = 500;

interface Instance {
  stack: RunningStack;
  readyz: string;
}

describeWithEngine('PostgreSQL and redis-server', both, 'engine outages under a sign-up load, two instances', () => {
  let postgres: RestartablePostgres;
  let redis: RedisEngine;
  let databaseUrl: string;
  let instances: Instance[] = [];

  beforeAll(async () => {
    [postgres, redis] = await Promise.all([startRestartablePostgres(), startRedis()]);
    const admin = new pg.Client({ connectionString: postgres.url });
    await admin.connect();
    await admin.query('CREATE DATABASE outage');
    await admin.end();
    databaseUrl = postgres.url.replace(/\/postgres$/, '/outage');
    const metricsPorts = [await freePort(), await freePort()];
    const stacks = await startStacks(
      metricsPorts.map((metricsPort) => ({
        distDir: shared.distDir,
        baseUrl: shared.baseUrl,
        env: { DATABASE_URL: databaseUrl, RATE_LIMIT_STORE: redis.url, METRICS_PORT: String(metricsPort), LOG_FORMAT: 'json', LOG_REQUESTS: 'true' },
        timeoutMs: OWN_STACK_TIMEOUT_MS,
      })),
    );
    instances = stacks.map((stack, i) => ({ stack, readyz: `http://127.0.0.1:${metricsPorts[i]}/readyz` }));
  }, OWN_STACK_TIMEOUT_MS);

  afterAll(async () => {
    await Promise.all(instances.map(({ stack }) => stack.stop()));
    await Promise.all([postgres?.stop(), redis?.stop()]);
  });

  /**
   * Milliseconds until every instance's /readyz answers 200 (ready) or 503 (not) and names these
   * degraded engines (polled every 50 ms); Infinity after 5 s.
   */
  async function readiness(ready: boolean, degraded: string[] = []): Promise<number> {
    const started = performance.now();
    const says = async (readyz: string) => {
      const res = await fetch(readyz);
      const body = (await res.json()) as { degraded: string[] };
      return (res.status === 200) === ready && JSON.stringify(body.degraded) === JSON.stringify(degraded);
    };
    while (performance.now() - started < 5_000) {
      const states = await Promise.all(instances.map(({ readyz }) => says(readyz).catch(() => false)));
      if (states.every(Boolean)) return performance.now() - started;
      await sleep(50);
    }
    return Infinity;
  }

  /** `during`: what /readyz says while the engines are away (default: not ready, nothing degraded). */
  async function outage(stop: () => Promise<void>, start: () => Promise<void>, during: { ready: boolean; degraded: string[] } = { ready: false, degraded: [] }) {
    expect(await readiness(true)).toBeLessThan(Infinity);
    const marks = instances.map(({ stack }) => stack.output().length);
    const load = signUpLoad(instances.map(({ stack }) => stack.url), 3);
    // Healthy answers first (at least two per client), the reference for how busy the machine is.
    for (const started = performance.now(); load.answered() < 12 && performance.now() - started < 5_000; ) await sleep(20);
    await sleep(200);
    const failedAt = performance.now();
    await stop();
    const notReadyMs = await readiness(during.ready, during.degraded);
    const body = await (await fetch(instances[0].readyz)).json();
    const metrics = await (await fetch(instances[0].readyz.replace(/readyz$/, 'metrics'))).text();
    const livez = (await fetch(instances[0].readyz.replace(/readyz$/, 'livez'))).status;
    await sleep(OUTAGE_MS);
    await start();
    const readyMs = await readiness(true);
    await sleep(300);
    const answers = await load.stop();
    // Request lines (the front's, one per request) apart from the rest: the outage's story.
    const output = instances.map(({ stack }, i) => stack.output().slice(marks[i]).split('\n').filter(Boolean));
    const isRequest = (line: string) => line.includes('"msg":"request"');
    const lines = output.map((all) => all.filter((line) => !isRequest(line)));
    const requestLines = output.map((all) => all.filter(isRequest).map((line) => JSON.parse(line) as { path: string; status: number }));
    // The slowest answer completed before the failure: how slow this machine is right now.
    const healthy = answers.filter((answer) => answer.sentAt + answer.ms < failedAt);
    const baselineMs = Math.max(0, ...healthy.map((answer) => answer.ms));
    return { answers, notReadyMs, readyMs, lines, requestLines, body, metrics, livez, baselineMs };
  }

  /** The acknowledged addresses that the database does not hold. */
  async function lost(answers: Answer[]): Promise<string[]> {
    const acknowledged = answers.filter((answer) => answer.status >= 200 && answer.status < 300).map((answer) => answer.email);
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    try {
      const { rows } = await client.query<{ email: string }>('SELECT email FROM waitlist WHERE email = ANY($1)', [acknowledged]);
      const stored = new Set(rows.map((row) => row.email));
      return acknowledged.filter((email) => !stored.has(email));
    } finally {
      await client.end();
    }
  }

  function summary(name: string, run: Awaited<ReturnType<typeof outage>>) {
    const failed = run.answers.filter((answer) => answer.status !== 200 && answer.status !== 201 && answer.status !== 202);
    const line = {
      outage: name,
      answers: run.answers.length,
      failed: failed.length,
      slowestFailureMs: Math.round(Math.max(0, ...failed.map((answer) => answer.ms))),
      slowestMs: Math.round(Math.max(...run.answers.map((answer) => answer.ms))),
      slowestHealthyBeforeMs: Math.round(run.baselineMs),
      notReadyMs: Math.round(run.notReadyMs),
      readyMs: Math.round(run.readyMs),
      logLines: run.lines.map((lines) => lines.length),
    };
    console.log(JSON.stringify(line));
    return failed;
  }

  /** Every answer is a success or a fast 500 internal_error; the log holds a few lines per instance. */
  function expectBoundedStory(run: Awaited<ReturnType<typeof outage>>, failed: Answer[], maxLines: number) {
    const bound = 1000 + run.baselineMs;
    for (const answer of failed) expect([answer.status, answer.error, answer.ms < bound]).toEqual([500, 'internal_error', true]);
    expect(run.notReadyMs).toBeLessThan(2000);
    expect(run.readyMs).toBeLessThan(2000);
    for (const lines of run.lines) expect(lines.length, lines.join('\n')).toBeLessThanOrEqual(maxLines);
    // Request lines keep their status: each instance logged a 500 for each sign-up it failed.
    instances.forEach(({ stack }, i) => {
      const refusedHere = failed.filter((answer) => answer.target === stack.url).length;
      expect(run.requestLines[i].filter((line) => line.status === 500).length).toBe(refusedHere);
    });
  }

  it('outage: PostgreSQL crashed and started again: fast 500s, readiness follows within 2 s, nothing acknowledged lost, two log lines per instance', async () => {
    const run = await outage(() => postgres.stopImmediate(), () => postgres.start());
    const failed = summary('postgres', run);
    expect(failed.length).toBeGreaterThan(0);
    expectBoundedStory(run, failed, 4);
    expect(run.body).toMatchObject({ ready: false, degraded: [], engines: [{ engine: 'postgres', state: 'down' }, { engine: 'redis', state: 'up' }] });
    expect(run.body.engines[0].lastError).toEqual(expect.any(String));
    expect(run.metrics).toMatch(/^waitlist_engine_up\{engine="postgres"\} 0$/m);
    expect(run.metrics).toMatch(/^waitlist_engine_up\{engine="redis"\} 1$/m);
    expect(run.livez).toBe(200);
    // Readiness lives on the metrics listener only: the public port keeps the contract's 404.
    expect((await fetch(new URL('/readyz', instances[0].stack.url))).status).toBe(404);
    for (const lines of run.lines) {
      // One outage, one story: the first failure and the return, once each.
      expect(lines.filter((line) => /postgres: unavailable \(/.test(line) && !/127\.0\.0\.1/.test(line))).toHaveLength(1);
      expect(lines.filter((line) => /postgres: available again after [\d.]+ s; \d+ requests failed during the outage/.test(line))).toHaveLength(1);
    }
    expect(await lost(run.answers)).toEqual([]);
  }, 30_000);

  it('outage: Redis stopped and started again: every sign-up still succeeds (limits count in each instance meanwhile), /readyz stays 200 naming redis degraded', async () => {
    const run = await outage(() => redis.kill(), () => redis.restart(), { ready: true, degraded: ['redis'] });
    const failed = summary('redis', run);
    expect(failed).toEqual([]);
    expectBoundedStory(run, failed, 4);
    expect(run.body).toMatchObject({ ready: true, degraded: ['redis'], engines: [{ engine: 'postgres', state: 'up' }, { engine: 'redis', state: 'down' }] });
    expect(await lost(run.answers)).toEqual([]);
  }, 30_000);

  it('outage: PostgreSQL and Redis at once: fast 500s, readiness follows within 2 s, nothing acknowledged lost, four log lines per instance', async () => {
    const run = await outage(
      () => Promise.all([postgres.stopImmediate(), redis.kill()]).then(() => {}),
      () => Promise.all([postgres.start(), redis.restart()]).then(() => {}),
      { ready: false, degraded: ['redis'] },
    );
    const failed = summary('both', run);
    expect(failed.length).toBeGreaterThan(0);
    expectBoundedStory(run, failed, 6);
    expect(await lost(run.answers)).toEqual([]);
  }, 30_000);
});
