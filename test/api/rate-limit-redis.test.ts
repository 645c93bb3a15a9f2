/**
 * Shared rate-limit windows in Redis/Valkey:
 * the setting, instances counting together, a start against an unreachable engine, and what
 * happens while the engine goes away and comes back (docs/api.md, "Rate limits").
 * A throwaway redis-server per file; skipped by name where none is installed.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { API_PATHS } from '../../api/contract/index.ts';
import { ConfigError, loadConfig } from '../../api/config.ts';
import { createApp } from '../../api/sidecar/app.ts';
import { MemoryRateLimitStore, openRateLimitStore } from '../../api/sidecar/http/rate-limit/index.ts';
import { RedisRateLimitStore } from '../../api/sidecar/http/rate-limit/redis.ts';
import { silentLogger } from '../../api/sidecar/http/log.ts';
import { REDIS_BINARY, startRedis, type RedisEngine } from '../support/engines/redis.ts';
import { describeWithEngine } from '../support/engines/require.ts';
import { freePort } from '../support/stack.ts';
import { send } from '../support/request.ts';
import { ROOT, runToEnd } from './support/process.ts';
import { CapturingLogger, harness } from './support/harness.ts';
import { from } from './support/requests.ts';

const LIMITS = { RATE_LIMIT_STANDARD: '3', RATE_LIMIT_RELAXED: '5' };

describe('RATE_LIMIT_STORE setting', () => {
  it('config: RATE_LIMIT_STORE takes redis://, rediss:// and valkey:// (an alias of redis://)', () => {
    expect(loadConfig({ RATE_LIMIT_STORE: 'redis://cache:6379/2' }).RATE_LIMIT_STORE).toBe('redis://cache:6379/2');
    expect(loadConfig({ RATE_LIMIT_STORE: 'rediss://u:p@cache:6380' }).RATE_LIMIT_STORE).toBe('rediss://u:p@cache:6380');
    expect(loadConfig({ RATE_LIMIT_STORE: 'valkey://cache:6379' }).RATE_LIMIT_STORE).toBe('redis://cache:6379');
    expect(loadConfig({}).RATE_LIMIT_STORE).toBeUndefined();
  });

  it('config: a bad RATE_LIMIT_STORE is a configuration error naming the variable, without the password', () => {
    for (const bad of ['localhost:6379', 'http://cache:6379', 'redis://', 'postgres://u:secret@db/x']) {
      let error: unknown;
      try {
        loadConfig({ RATE_LIMIT_STORE: bad });
      } catch (caught) {
        error = caught;
      }
      expect(error).toBeInstanceOf(ConfigError);
      expect((error as ConfigError).problems.join('\n')).toMatch(/^RATE_LIMIT_STORE=.*redis:\/\//);
      expect((error as ConfigError).message).not.toContain('secret');
    }
  });

  it('rate limit: without RATE_LIMIT_STORE the windows are in this process', async () => {
    const store = await openRateLimitStore(loadConfig({}), silentLogger);
    expect(store).toBeInstanceOf(MemoryRateLimitStore);
  });

  it('rate limit: the Redis driver (ioredis) is loaded only when RATE_LIMIT_STORE is set', async () => {
    // A child process that records every import of 'ioredis' while the engine is chosen.
    const probe = `
      import { registerHooks } from 'node:module';
      const seen = [];
      registerHooks({ resolve(specifier, context, next) { if (specifier === 'ioredis') seen.push(specifier); return next(specifier, context); } });
      const { openRateLimitStore } = await import(${JSON.stringify(pathToFileURL(join(ROOT, 'api/sidecar/http/rate-limit/index.ts')).href)});
      const store = await openRateLimitStore({ RATE_LIMIT_WINDOW_SECONDS: 60, RATE_LIMIT_MAX_CLIENTS: 10, RATE_LIMIT_STORE: process.argv[1] || undefined }, { info() {}, error() {} }).catch(() => undefined);
      await store?.close();
      console.log(seen.length);`;
    const loads = async (setting: string) => (await promisify(execFile)(process.execPath, ['--input-type=module', '-e', probe, setting], { cwd: ROOT })).stdout.trim();
    expect(await loads('')).toBe('0');
    expect(await loads(`redis://127.0.0.1:${await freePort()}`)).toBe('1');
  });

  it('start: an unreachable RATE_LIMIT_STORE stops the sidecar with one paragraph naming the variable', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'rl-start-'));
    try {
      const closed = await freePort();
      const run = await runToEnd('api/sidecar/main.ts', [], { DATA_DIR: dir, RATE_LIMIT_STORE: `redis://:hunter2@127.0.0.1:${closed}` });
      expect(run.code).toBe(1);
      const message = run.stderr.trim();
      expect(message).toContain(`redis://:***@127.0.0.1:${closed} (RATE_LIMIT_STORE) cannot be reached (ECONNREFUSED)`);
      expect(message).not.toContain('hunter2');
      expect(message).not.toMatch(/\n|    at /);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 30_000);
});

describeWithEngine('redis-server', REDIS_BINARY, 'rate limits shared in Redis', () => {
  let engine: RedisEngine;
  let prefixes = 0;
  beforeAll(async () => {
    engine = await startRedis();
  });
  afterAll(() => engine.stop());

  const open = (logger = silentLogger, keyPrefix = `shared${prefixes++}:`) =>
    RedisRateLimitStore.open({ url: engine.url, windowSeconds: 60, maxKeys: 1000, logger, keyPrefix });

  it('rate limit: two instances on one engine count a client together, not each', async () => {
    const keyPrefix = `two${prefixes++}:`;
    const [a, b] = [await harness(LIMITS), await harness(LIMITS)];
    const [limitA, limitB] = [await open(silentLogger, keyPrefix), await open(silentLogger, keyPrefix)];
    try {
      const apps = [createApp({ ...a, limiter: limitA }), createApp({ ...b, limiter: limitB })];
      const answers = [];
      for (let i = 0; i < 4; i++) {
        const res = await send(apps[i % 2], '/api/v1/nowhere', { headers: from('198.51.100.20') });
        answers.push(`${res.status} ${res.headers.get('ratelimit-remaining')}`);
      }
      expect(answers).toEqual(['404 2', '404 1', '404 0', '429 0']);
    } finally {
      await Promise.all([limitA.close(), limitB.close(), a.close(), b.close()]);
    }
  });

  it('rate limit: while the engine is down requests are counted in memory (one log line), never 500; when it is back, in Redis again (one line)', async () => {
    const h = await harness(LIMITS);
    const keyPrefix = `outage${prefixes++}:`;
    const limiter = await open(h.logger, keyPrefix);
    const otherLogger = new CapturingLogger();
    const other = await open(otherLogger, keyPrefix);
    const app = createApp({ ...h, limiter });
    const hit = async (address: string) => {
      const res = await send(app, API_PATHS.status, { headers: from(address) });
      return `${res.status} ${res.headers.get('ratelimit-remaining')}`;
    };
    const storeLines = () => h.logger.lines.filter((line) => line.startsWith('redis:'));
    try {
      expect([await hit('192.0.2.7'), await hit('192.0.2.7')]).toEqual(['200 4', '200 3']);

      await engine.kill('SIGKILL');
      // A fresh window in this process: the shared count is out of reach, the limit still holds.
      const during = [];
      for (let i = 0; i < 6; i++) during.push(await hit('192.0.2.7'));
      expect(during).toEqual(['200 4', '200 3', '200 2', '200 1', '200 0', '429 0']);
      expect(storeLines()).toHaveLength(1);
      expect(storeLines()[0]).toMatch(/^redis: unavailable \(.+\); rate limits count in this process until the store \(RATE_LIMIT_STORE\) is back$/);
      expect(storeLines()[0]).not.toMatch(/127\.0\.0\.1|:\d{4,5}\b/);

      await engine.restart();
      // Each instance reconnects on its own schedule: both are back once both have said so.
      await vi.waitFor(() => expect(storeLines()).toHaveLength(2), { timeout: 10_000, interval: 50 });
      await vi.waitFor(() => expect(otherLogger.lines.filter((line) => line.startsWith('redis: available again'))).toHaveLength(1), { timeout: 10_000, interval: 50 });
      expect(storeLines()[1]).toMatch(/^redis: available again after [\d.]+ s; 6 requests counted in this process during the outage$/);
      // Counted in the engine again: another instance sees this instance's request.
      expect(await hit('192.0.2.8')).toBe('200 4');
      expect(await other.hit('relaxed', '192.0.2.8', 5, h.clock.now())).toMatchObject({ remaining: 3 });
    } finally {
      await Promise.all([limiter.close(), other.close(), h.close()]);
    }
  }, 30_000);

  it('rate limit: an engine that stops answering (SIGSTOP) costs a request at most the command timeout, then none; answering again, it is used again', async () => {
    const h = await harness(LIMITS);
    const limiter = await open(h.logger);
    const app = createApp({ ...h, limiter });
    try {
      process.kill(engine.pid, 'SIGSTOP');
      const times = [];
      for (let i = 0; i < 3; i++) {
        const started = performance.now();
        expect((await send(app, API_PATHS.status, { headers: from('192.0.2.9') })).status).toBe(200);
        times.push(performance.now() - started);
      }
      expect(times[0]).toBeLessThan(1000);
      expect(Math.max(times[1], times[2])).toBeLessThan(100);
      expect(h.logger.lines.filter((line) => line.startsWith('redis: unavailable'))).toHaveLength(1);

      // Answering again (the connection never dropped): back to the engine after the back-off, one line.
      process.kill(engine.pid, 'SIGCONT');
      await vi.waitFor(
        async () => {
          await send(app, API_PATHS.status, { headers: from('192.0.2.9') });
          expect(h.logger.lines.filter((line) => line.startsWith('redis: available again'))).toHaveLength(1);
        },
        { timeout: 5000, interval: 100 },
      );
    } finally {
      process.kill(engine.pid, 'SIGCONT');
      await Promise.all([limiter.close(), h.close()]);
    }
  });
});
