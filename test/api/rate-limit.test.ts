/** Rate limits (contract part 8): policies, windows, headers, client addresses, bounded memory. */
import { describe, expect, it } from 'vitest';
import { API_PATHS } from '../../api/contract/index.ts';
import { RateLimiter } from '../../api/sidecar/http/rate-limit.ts';
import { send } from '../support/request.ts';
import { harness } from './support/harness.ts';
import { envPath, formPost, from, jsonPost } from './support/requests.ts';

const LIMITS = { RATE_LIMIT_STANDARD: '3', RATE_LIMIT_RELAXED: '5' };

describe('rate limits through the app', () => {
  it('rate limit: the 4th standard call in a window -> 429 rate_limited, Retry-After = RateLimit-Reset, Remaining 0', async () => {
    const h = await harness(LIMITS);
    try {
      const remaining = [];
      for (let i = 0; i < 3; i++) {
        const res = await send(h.app, API_PATHS.waitlist, jsonPost({ email: `r${i}@example.com`, consent: true }, from('198.51.100.7')));
        expect(res.headers.get('ratelimit-policy')).toBe('3;w=60');
        expect(res.headers.get('ratelimit-limit')).toBe('3');
        remaining.push(res.headers.get('ratelimit-remaining'));
        h.clock.advance(10);
      }
      expect(remaining).toEqual(['2', '1', '0']);
      const blocked = await send(h.app, API_PATHS.waitlist, jsonPost({ email: 'r9@example.com', consent: true }, from('198.51.100.7')));
      expect([blocked.status, blocked.body.error]).toEqual([429, 'rate_limited']);
      expect(blocked.headers.get('ratelimit-remaining')).toBe('0');
      expect(blocked.headers.get('ratelimit-reset')).toBe('30');
      expect(blocked.headers.get('retry-after')).toBe('30');
      expect(h.store.size).toBe(3);
      h.clock.advance(30);
      const next = await send(h.app, API_PATHS.waitlist, jsonPost({ email: 'r9@example.com', consent: true }, from('198.51.100.7')));
      expect([next.status, next.headers.get('ratelimit-remaining'), next.headers.get('ratelimit-reset')]).toEqual([200, '2', '60']);
    } finally {
      await h.close();
    }
  });

  it('rate limit: status GET/HEAD and every sandbox call are relaxed; POST on status, 404s and other calls are standard', async () => {
    const h = await harness(LIMITS);
    try {
      const policy = async (path: string, init: RequestInit = {}) => (await send(h.app, path, { ...init, headers: { ...from('203.0.113.9'), ...(init.headers as object) } })).headers.get('ratelimit-policy');
      expect(await policy(API_PATHS.status)).toBe('5;w=60');
      expect(await policy(API_PATHS.status, { method: 'HEAD' })).toBe('5;w=60');
      expect(await policy(envPath('sandbox', API_PATHS.waitlist), formPost('email=x'))).toBe('5;w=60');
      expect(await policy('/sandbox/api/v1/nowhere')).toBe('5;w=60');
      expect(await policy(API_PATHS.status, { method: 'POST' })).toBe('3;w=60');
      expect(await policy('/api/v1/nowhere')).toBe('3;w=60');
      expect(await policy(API_PATHS.index)).toBe('3;w=60');
    } finally {
      await h.close();
    }
  });

  it('rate limit: each policy has its own window; errors and 404s count', async () => {
    const h = await harness(LIMITS);
    try {
      const client = from('192.0.2.44');
      for (let i = 0; i < 3; i++) expect((await send(h.app, '/api/v1/prices', { headers: client })).status).toBe(404);
      expect((await send(h.app, API_PATHS.token, { method: 'GET', headers: client })).status).toBe(429);
      const status = await send(h.app, API_PATHS.status, { headers: client });
      expect([status.status, status.headers.get('ratelimit-remaining')]).toEqual([200, '4']);
    } finally {
      await h.close();
    }
  });

  it('rate limit: counted per client address: IPv6 per /64, IPv4-mapped IPv6 as IPv4', async () => {
    const h = await harness(LIMITS);
    try {
      const remaining = async (address: string) => (await send(h.app, '/api/v1/nowhere', { headers: from(address) })).headers.get('ratelimit-remaining');
      expect(await remaining('2001:db8:1:2::1')).toBe('2');
      expect(await remaining('2001:db8:1:2:ffff:ffff:ffff:ffff')).toBe('1');
      expect(await remaining('2001:db8:1:3::1')).toBe('2');
      expect(await remaining('192.0.2.1')).toBe('2');
      expect(await remaining('::ffff:192.0.2.1')).toBe('1');
      expect(await remaining('192.0.2.2')).toBe('2');
    } finally {
      await h.close();
    }
  });
});

describe('rate limiter arithmetic', () => {
  it('rate limit: a window starts with the first request and resets after its length', () => {
    const limiter = new RateLimiter({ windowSeconds: 60, maxKeys: 10 });
    expect(limiter.hit('k', 2, 0)).toMatchObject({ allowed: true, remaining: 1, resetSeconds: 60 });
    expect(limiter.hit('k', 2, 59_500)).toMatchObject({ allowed: true, remaining: 0, resetSeconds: 1 });
    expect(limiter.hit('k', 2, 59_900)).toMatchObject({ allowed: false, remaining: 0, resetSeconds: 1 });
    expect(limiter.hit('k', 2, 60_000)).toMatchObject({ allowed: true, remaining: 1, resetSeconds: 60 });
  });

  it('rate limit: a flood from a million addresses never grows the table past its cap', () => {
    const limiter = new RateLimiter({ windowSeconds: 60, maxKeys: 1000 });
    for (let i = 0; i < 1_000_000; i++) limiter.hit(`standard ${i}`, 30, i);
    expect(limiter.size).toBe(1000);
  });

  it('rate limit: expired windows are swept', () => {
    const limiter = new RateLimiter({ windowSeconds: 60, maxKeys: 1000 });
    for (let i = 0; i < 500; i++) limiter.hit(`k${i}`, 30, 0);
    limiter.hit('late', 30, 61_000);
    expect(limiter.size).toBe(1);
  });
});
