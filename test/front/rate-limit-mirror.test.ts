/** RateLimit-* on the front's own answers: what the sidecar last said to that client, aged, never counted. */
import { describe, expect, test } from 'vitest';
import { API_PATHS } from '../../api/contract/index.ts';
import { rateLimitPolicy } from '../../api/contract/index.ts';
import { RateLimitMirror } from '../../api/front/rate-limit-mirror.ts';

const limits = { standard: 30, relaxed: 120 };
function mirror(maxEntries = 10) {
  let now = 1_000_000;
  const m = new RateLimitMirror({ limits, windowSeconds: 60, ipv6PrefixBits: 64, maxEntries, now: () => now });
  return { m, advance: (ms: number) => (now += ms) };
}
const fields = (list: string[]) => Object.fromEntries(list.flatMap((v, i) => (i % 2 ? [] : [[v.toLowerCase(), list[i + 1]]])));

describe('rate-limit mirror', () => {
  const policies: [path: string, method: string, policy: string][] = [
    [API_PATHS.status, 'GET', 'relaxed'],
    [API_PATHS.status, 'HEAD', 'relaxed'],
    [API_PATHS.status, 'POST', 'standard'],
    [API_PATHS.waitlist, 'POST', 'standard'],
    [`/sandbox${API_PATHS.waitlist}`, 'POST', 'relaxed'],
    ['/api/v1/prices', 'GET', 'standard'],
    ['/sandbox/api/v1/unknown', 'G@T', 'relaxed'],
  ];
  test.each(policies)('policy: %s %s -> %s (contract part 8)', (path, method, policy) => {
    expect(rateLimitPolicy(path, method)).toBe(policy);
  });

  test('mirror: a client never seen gets a fresh window of its policy', () => {
    const { m } = mirror();
    expect(fields(m.fields(m.key('192.0.2.1', API_PATHS.waitlist, 'POST')))).toEqual({
      'ratelimit-limit': '30', 'ratelimit-remaining': '30', 'ratelimit-reset': '60', 'ratelimit-policy': '30;w=60',
    });
  });

  test('mirror: repeats the last Remaining and an aged Reset, and counts nothing itself', () => {
    const { m, advance } = mirror();
    const key = m.key('192.0.2.1', `${API_PATHS.status}?x=1`, 'GET');
    m.note(key, '97', '40');
    advance(10_500);
    expect(fields(m.fields(key))).toMatchObject({ 'ratelimit-limit': '120', 'ratelimit-remaining': '97', 'ratelimit-reset': '30' });
    expect(fields(m.fields(key))['ratelimit-remaining']).toBe('97');
  });

  test('mirror: after the window ended, a fresh window again', () => {
    const { m, advance } = mirror();
    const key = m.key('192.0.2.1', API_PATHS.waitlist, 'POST');
    m.note(key, '0', '5');
    advance(5_000);
    expect(fields(m.fields(key))).toMatchObject({ 'ratelimit-remaining': '30', 'ratelimit-reset': '60' });
  });

  test('mirror: keyed like the sidecar counts: per policy, IPv6 per /64', () => {
    const { m } = mirror();
    m.note(m.key('2001:db8::1', API_PATHS.waitlist, 'POST'), '3', '50');
    expect(fields(m.fields(m.key('2001:db8::ffff', API_PATHS.waitlist, 'POST')))['ratelimit-remaining']).toBe('3');
    expect(fields(m.fields(m.key('2001:db8::1', API_PATHS.status, 'GET')))['ratelimit-remaining']).toBe('120');
    expect(fields(m.fields(m.key('2001:db8:0:1::1', API_PATHS.waitlist, 'POST')))['ratelimit-remaining']).toBe('30');
  });

  test('mirror: values that are not counts are ignored', () => {
    const { m } = mirror();
    const key = m.key('192.0.2.1', API_PATHS.waitlist, 'POST');
    for (const [remaining, reset] of [[undefined, '5'], ['x', '5'], ['-1', '5'], ['3', undefined]] as const) m.note(key, remaining, reset);
    expect(m.size).toBe(0);
  });

  test('mirror: bounded; the oldest record goes first', () => {
    const { m } = mirror(3);
    for (let i = 1; i <= 5; i++) m.note(m.key(`192.0.2.${i}`, API_PATHS.waitlist, 'POST'), '7', '50');
    expect(m.size).toBe(3);
    expect(fields(m.fields(m.key('192.0.2.1', API_PATHS.waitlist, 'POST')))['ratelimit-remaining']).toBe('30');
    expect(fields(m.fields(m.key('192.0.2.5', API_PATHS.waitlist, 'POST')))['ratelimit-remaining']).toBe('7');
  });
});
