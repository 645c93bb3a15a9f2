/**
 * Rate limits (contract part 8): policies, windows, headers, client addresses, bounded memory.
 * The decisions and headers are held to the same rules on both engines: the in-memory windows and
 * the shared Redis/Valkey windows (the run's throwaway redis-server; skipped by name where none is
 * installed, a failure with REQUIRE_ENGINES=1).
 */
import type { H3 } from 'h3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_PATHS } from '../../api/contract/index.ts';
import { createApp } from '../../api/sidecar/app.ts';
import { silentLogger } from '../../api/sidecar/http/log.ts';
import type { RateLimitStore } from '../../api/sidecar/http/rate-limit/decision.ts';
import { memoryRateLimitStore, MemoryRateLimitStore } from '../../api/sidecar/http/rate-limit/index.ts';
import { RedisRateLimitStore } from '../../api/sidecar/http/rate-limit/redis.ts';
import { REDIS_BINARY } from '../support/engines/redis.ts';
import { sharedRedisUrl } from '../support/engines/shared.ts';
import { describeWithEngine } from '../support/engines/require.ts';
import { send } from '../support/request.ts';
import { harness, type Harness } from './support/harness.ts';
import { envPath, formPost, from, jsonPost } from './support/requests.ts';

const LIMITS = { RATE_LIMIT_STANDARD: '3', RATE_LIMIT_RELAXED: '5' };

interface Engine {
  name: string;
  binary: string | undefined;
  setUp(): Promise<void>;
  tearDown(): Promise<void>;
  /** A fresh limiter (keys of its own) with a 60 s window. */
  limiter(): Promise<RateLimitStore>;
}

/** A database of this file's own on the run's shared Redis. */
let redisUrl: string | undefined;
let prefixes = 0;
const ENGINES: Engine[] = [
  {
    name: 'memory',
    binary: 'built in',
    async setUp() {},
    async tearDown() {},
    limiter: async () => memoryRateLimitStore({ RATE_LIMIT_WINDOW_SECONDS: 60, RATE_LIMIT_MAX_CLIENTS: 1000 }),
  },
  {
    name: 'redis',
    binary: REDIS_BINARY,
    async setUp() {
      redisUrl = await sharedRedisUrl();
    },
    async tearDown() {},
    limiter: () => RedisRateLimitStore.open({ url: redisUrl!, windowSeconds: 60, maxKeys: 1000, logger: silentLogger, keyPrefix: `t${prefixes++}:` }),
  },
];

describe.each(ENGINES)('rate limits on the $name engine', (engine) => {
  describeWithEngine('redis-server', engine.binary, `${engine.name} engine`, () => {
    beforeAll(() => engine.setUp());
    afterAll(() => engine.tearDown());

    /** The test harness's app, with this engine's limiter. */
    async function app(): Promise<{ h: Harness; app: H3; close(): Promise<void> }> {
      const h = await harness(LIMITS);
      const limiter = await engine.limiter();
      return { h, app: createApp({ ...h, limiter }), close: async () => (await limiter.close(), await h.close()) };
    }

    it('rate limit: the 4th standard call in a window -> 429 rate_limited, Retry-After = RateLimit-Reset, Remaining 0', async () => {
      const { h, app: target, close } = await app();
      try {
        const remaining = [];
        for (let i = 0; i < 3; i++) {
          const res = await send(target, API_PATHS.waitlist, jsonPost({ email: `r${i}@example.com`, consent: true }, from('198.51.100.7')));
          expect(res.headers.get('ratelimit-policy')).toBe('3;w=60');
          expect(res.headers.get('ratelimit-limit')).toBe('3');
          remaining.push(res.headers.get('ratelimit-remaining'));
          h.clock.advance(10);
        }
        expect(remaining).toEqual(['2', '1', '0']);
        const blocked = await send(target, API_PATHS.waitlist, jsonPost({ email: 'r9@example.com', consent: true }, from('198.51.100.7')));
        expect([blocked.status, blocked.body.error]).toEqual([429, 'rate_limited']);
        expect(blocked.headers.get('ratelimit-remaining')).toBe('0');
        expect(blocked.headers.get('ratelimit-reset')).toBe('30');
        expect(blocked.headers.get('retry-after')).toBe('30');
        expect(await h.store.count()).toBe(3);
        h.clock.advance(30);
        const next = await send(target, API_PATHS.waitlist, jsonPost({ email: 'r9@example.com', consent: true }, from('198.51.100.7')));
        expect([next.status, next.headers.get('ratelimit-remaining'), next.headers.get('ratelimit-reset')]).toEqual([200, '2', '60']);
      } finally {
        await close();
      }
    });

    it('rate limit: status GET/HEAD and every sandbox call are relaxed; POST on status, 404s and other calls are standard', async () => {
      const { app: target, close } = await app();
      try {
        const policy = async (path: string, init: RequestInit = {}) =>
          (await send(target, path, { ...init, headers: { ...from('203.0.113.9'), ...(init.headers as object) } })).headers.get('ratelimit-policy');
        expect(await policy(API_PATHS.status)).toBe('5;w=60');
        expect(await policy(API_PATHS.status, { method: 'HEAD' })).toBe('5;w=60');
        expect(await policy(envPath('sandbox', API_PATHS.waitlist), formPost('email=x'))).toBe('5;w=60');
        expect(await policy('/sandbox/api/v1/nowhere')).toBe('5;w=60');
        expect(await policy(API_PATHS.status, { method: 'POST' })).toBe('3;w=60');
        expect(await policy('/api/v1/nowhere')).toBe('3;w=60');
        expect(await policy(API_PATHS.index)).toBe('3;w=60');
      } finally {
        await close();
      }
    });

    it('rate limit: each policy has its own window; errors and 404s count', async () => {
      const { app: target, close } = await app();
      try {
        const client = from('192.0.2.44');
        for (let i = 0; i < 3; i++) expect((await send(target, '/api/v1/prices', { headers: client })).status).toBe(404);
        expect((await send(target, API_PATHS.token, { method: 'GET', headers: client })).status).toBe(429);
        const status = await send(target, API_PATHS.status, { headers: client });
        expect([status.status, status.headers.get('ratelimit-remaining')]).toEqual([200, '4']);
      } finally {
        await close();
      }
    });

    it('rate limit: counted per client address: IPv6 per /64, IPv4-mapped IPv6 as IPv4', async () => {
      const { app: target, close } = await app();
      try {
        const remaining = async (address: string) => (await send(target, '/api/v1/nowhere', { headers: from(address) })).headers.get('ratelimit-remaining');
        expect(await remaining('2001:db8:1:2::1')).toBe('2');
        expect(await remaining('2001:db8:1:2:ffff:ffff:ffff:ffff')).toBe('1');
        expect(await remaining('2001:db8:1:3::1')).toBe('2');
        expect(await remaining('192.0.2.1')).toBe('2');
        expect(await remaining('::ffff:192.0.2.1')).toBe('1');
        expect(await remaining('192.0.2.2')).toBe('2');
      } finally {
        await close();
      }
    });

    it('rate limit: a window starts with the first request and resets after its length', async () => {
      const limiter = await engine.limiter();
      try {
        const t0 = Date.parse('2026-11-20T12:00:00.000Z');
        expect(await limiter.hit('standard', 'k', 2, t0)).toMatchObject({ allowed: true, remaining: 1, resetSeconds: 60 });
        expect(await limiter.hit('standard', 'k', 2, t0 + 59_500)).toMatchObject({ allowed: true, remaining: 0, resetSeconds: 1 });
        expect(await limiter.hit('standard', 'k', 2, t0 + 59_900)).toMatchObject({ allowed: false, remaining: 0, resetSeconds: 1 });
        expect(await limiter.hit('standard', 'k', 2, t0 + 60_000)).toMatchObject({ allowed: true, remaining: 1, resetSeconds: 60 });
      } finally {
        await limiter.close();
      }
    });
  });
});

describe('in-memory windows stay bounded', () => {
  it("rate limit: a flood from a million addresses never grows a policy's table past its cap", () => {
    const limiter = new MemoryRateLimitStore({ windowSeconds: 60, maxKeys: 1000 });
    for (let i = 0; i < 1_000_000; i++) limiter.hitNow('standard', `${i}`, 30, i);
    expect(limiter.size('standard')).toBe(1000);
  });

  it("rate limit: the cap is per policy: a flood under one policy evicts none of the other policy's clients", () => {
    const limiter = new MemoryRateLimitStore({ windowSeconds: 60, maxKeys: 100 });
    limiter.hitNow('relaxed', 'steady', 5, 0);
    for (let i = 0; i < 10_000; i++) limiter.hitNow('standard', `flood ${i}`, 30, 1);
    expect([limiter.size('standard'), limiter.size('relaxed')]).toEqual([100, 1]);
    expect(limiter.hitNow('relaxed', 'steady', 5, 2)).toMatchObject({ remaining: 3 });
  });

  it('rate limit: a full table evicts the window that ends soonest, not a newer one', () => {
    const limiter = new MemoryRateLimitStore({ windowSeconds: 60, maxKeys: 2 });
    limiter.hitNow('standard', 'first', 5, 0);
    limiter.hitNow('standard', 'second', 5, 1);
    limiter.hitNow('standard', 'third', 5, 2);
    expect(limiter.hitNow('standard', 'second', 5, 3)).toMatchObject({ remaining: 3 });
    expect(limiter.hitNow('standard', 'first', 5, 4)).toMatchObject({ remaining: 4 });
  });

  it('rate limit: expired windows are swept', () => {
    const limiter = new MemoryRateLimitStore({ windowSeconds: 60, maxKeys: 1000 });
    for (let i = 0; i < 500; i++) limiter.hitNow('standard', `k${i}`, 30, 0);
    limiter.hitNow('standard', 'late', 30, 61_000);
    expect(limiter.size('standard')).toBe(1);
  });
});
