/**
 * Two instances (each a real front + sidecar, own DATA_DIR and port) sharing one PostgreSQL
 * (DATABASE_URL) and one Redis (RATE_LIMIT_STORE), as behind a balancer. Both serve one site built for one BASE_URL, as behind one balancer. The front
 * believes X-Forwarded-For from loopback (TRUST_PROXY), so each scenario is its own client.
 * Skipped by name where PostgreSQL or Redis is not installed (REQUIRE_ENGINES=1: a failure).
 */
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, expect, inject, it, vi } from 'vitest';
import { API_PATHS } from '../../api/contract/index.ts';
import { postgresBinDir } from '../support/engines/postgres.ts';
import { REDIS_BINARY } from '../support/engines/redis.ts';
import { describeWithEngine } from '../support/engines/require.ts';
import { sharedPostgres, sharedRedisUrl } from '../support/engines/shared.ts';
import { send } from '../support/request.ts';
import { OWN_STACK_TIMEOUT_MS, ROOT, stackEnv, startStacks, type RunningStack } from '../support/stack.ts';

const shared = inject('stack');
const STANDARD_LIMIT = 30;
const both = postgresBinDir() && REDIS_BINARY ? 'found' : undefined;

describeWithEngine('PostgreSQL and redis-server', both, 'two instances on one PostgreSQL and one Redis', () => {
  let databaseUrl: string;
  let a: RunningStack;
  let b: RunningStack;

  beforeAll(async () => {
    // The run's engines: a database and a Redis database number of this file's own.
    const [postgres, redisUrl] = await Promise.all([sharedPostgres(), sharedRedisUrl()]);
    databaseUrl = await postgres.createDatabase();
    const env = {
      DATABASE_URL: databaseUrl,
      RATE_LIMIT_STORE: redisUrl,
      RATE_LIMIT_STANDARD: String(STANDARD_LIMIT),
      RATE_LIMIT_RELAXED: '120',
      TRUST_PROXY: '127.0.0.1',
    };
    // Both serve the run's site, built for one BASE_URL, as behind one balancer.
    const site = { distDir: shared.distDir, baseUrl: shared.baseUrl, env, timeoutMs: OWN_STACK_TIMEOUT_MS };
    [a, b] = await startStacks([site, site]);
  }, OWN_STACK_TIMEOUT_MS * 2);

  afterAll(async () => {
    await Promise.all([a?.stop(), b?.stop()]);
  });

  /** An operator command (`npm run clients|waitlist -- …`) against the shared database. */
  async function operator(script: 'clients' | 'waitlist', ...args: string[]): Promise<string> {
    const run = promisify(execFile);
    const { stdout } = await run(process.execPath, [path.join(ROOT, 'scripts', `${script}.ts`), ...args], {
      cwd: ROOT,
      env: stackEnv({ DATABASE_URL: databaseUrl, DATA_DIR: a.dataDir }),
    });
    return stdout;
  }

  const signUp = (instance: RunningStack, email: string, client: string, answers: Record<string, string> = {}) =>
    send(instance.url, API_PATHS.waitlist, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': client },
      body: JSON.stringify({ email, consent: true, ...answers }),
    });

  const token = (instance: RunningStack, id: string, secret: string, client: string) =>
    send(instance.url, API_PATHS.token, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-forwarded-for': client },
      body: new URLSearchParams({ grant_type: 'client_credentials', client_id: id, client_secret: secret }).toString(),
    });

  it('scale-out: one client alternating between the instances is limited at the standard limit in total, not each', async () => {
    const answers: string[] = [];
    for (let i = 0; i < STANDARD_LIMIT + 2; i++) {
      const res = await send([a, b][i % 2].url, API_PATHS.index, { headers: { 'x-forwarded-for': '198.51.100.1' } });
      answers.push(`${res.status} ${res.headers.get('ratelimit-remaining')}`);
    }
    const expected = Array.from({ length: STANDARD_LIMIT }, (_, i) => `200 ${STANDARD_LIMIT - 1 - i}`);
    expect(answers).toEqual([...expected, '429 0', '429 0']);
  });

  it('scale-out: 20 concurrent sign-ups of one address over both instances make one record with merged answers', async () => {
    const email = 'Merge.Me@Example.com';
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        signUp([a, b][i % 2], email, `198.51.100.${10 + i}`, i % 2 ? { role: 'developer' } : { building: 'agents' }),
      ),
    );
    expect(answers.map((res) => res.status)).toEqual(Array(20).fill(200));
    const exported = (await operator('waitlist', 'export')).trim().split('\n').map((line) => JSON.parse(line));
    const records = exported.filter((row) => row.email === 'merge.me@example.com');
    expect(records).toHaveLength(1);
    expect(records[0]).toMatchObject({ role: 'developer', building: 'agents' });
  });

  it('scale-out: a token issued by A is accepted by B; a client deleted through the CLI is refused by both', async () => {
    const client = JSON.parse(await operator('clients', 'create', '--json', 'scale-out test'));
    const issued = await token(a, client.client_id, client.client_secret, '198.51.100.40');
    expect(issued.status).toBe(200);
    const stats = await send(b.url, API_PATHS.stats, { headers: { authorization: `Bearer ${issued.body.access_token}`, 'x-forwarded-for': '198.51.100.41' } });
    expect(stats.status).toBe(200);
    expect(stats.body.total).toBeGreaterThanOrEqual(1);

    await operator('clients', 'delete', client.client_id);
    for (const instance of [a, b]) {
      const refused = await token(instance, client.client_id, client.client_secret, '198.51.100.42');
      expect([refused.status, refused.body.error]).toEqual([401, 'invalid_client']);
    }
  });

  it('scale-out: SIGKILL of one instance during a sign-up load loses no acknowledged sign-up', async () => {
    const acknowledged: string[] = [];
    let sent = 0;
    let killed = false;
    let sidecar: number | undefined;
    const worker = async (instance: RunningStack, w: number) => {
      // B's workers stop once B is gone; A's go on for as many sign-ups again.
      while (sent < 400 && !(killed && instance === b)) {
        const email = `load-${w}-${sent++}@example.com`;
        const res = await signUp(instance, email, `203.0.113.${(sent % 250) + 1}`).catch(() => undefined);
        if (res?.status === 200) acknowledged.push(email);
        if (!killed && acknowledged.length >= 100) {
          killed = true;
          // The sidecar first, so that it cannot stop gracefully when its parent's channel closes.
          sidecar = await b.sidecarPid();
          if (sidecar) process.kill(sidecar, 'SIGKILL');
          process.kill(b.process.pid!, 'SIGKILL');
        }
      }
    };
    await Promise.all([0, 1, 2, 3].map((w) => worker(w % 2 ? b : a, w)));
    expect(killed).toBe(true);
    expect(sidecar).toBeGreaterThan(0);
    await vi.waitFor(() => expect(b.process.signalCode).toBe('SIGKILL'));
    expect(acknowledged.some((email) => /^load-[13]-/.test(email))).toBe(true);
    const stored = new Set((await operator('waitlist', 'export')).trim().split('\n').map((line) => JSON.parse(line).email));
    expect(acknowledged.filter((email) => !stored.has(email))).toEqual([]);
  }, 60_000);
});
