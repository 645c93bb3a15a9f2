import { describe, expect, test } from 'vitest';
import { ConfigError } from '../../api/config.ts';
import { clientAddress, trustedProxies } from '../../api/front/client-address.ts';

describe('client address (X-Forwarded-For, TRUST_PROXY)', () => {
  const none = trustedProxies([]);
  const local = trustedProxies(['127.0.0.1', '10.0.0.0/8', '2001:db8::/32']);
  const cases: [name: string, peer: string, xff: string | undefined, trusted: typeof none, expected: string][] = [
    ['untrusted peer: its own address, the header is ignored', '203.0.113.9', '6.6.6.6', none, '203.0.113.9'],
    ['nobody trusted: even loopback peers are taken as they are', '127.0.0.1', '6.6.6.6', none, '127.0.0.1'],
    ['IPv4-mapped IPv6 peer is reported as IPv4', '::ffff:203.0.113.9', undefined, none, '203.0.113.9'],
    ['trusted peer, no header: the peer', '127.0.0.1', undefined, local, '127.0.0.1'],
    ['trusted peer: the rightmost untrusted entry', '127.0.0.1', '6.6.6.6, 198.51.100.4', local, '198.51.100.4'],
    ['trusted hops on the right are skipped', '127.0.0.1', '6.6.6.6, 198.51.100.4, 10.1.2.3', local, '198.51.100.4'],
    ['all hops trusted: the leftmost', '127.0.0.1', '10.0.0.5, 10.0.0.6', local, '10.0.0.5'],
    ['garbage ends the walk at the trusted hop that passed it on', '127.0.0.1', 'evil, 10.0.0.7', local, '10.0.0.7'],
    ['garbage right at the peer: the peer', '127.0.0.1', '6.6.6.6, not-an-ip', local, '127.0.0.1'],
    ['ports and brackets are dropped', '127.0.0.1', '198.51.100.4:5555', local, '198.51.100.4'],
    ['IPv6 hops', '127.0.0.1', '[2001:db9::1]:443, 2001:db8::5', local, '2001:db9::1'],
    ['IPv4-mapped hops are reported as IPv4', '::ffff:127.0.0.1', '::ffff:198.51.100.4', local, '198.51.100.4'],
  ];
  test.each(cases)('X-Forwarded-For: %s', (_name, peer, xff, trusted, expected) => {
    expect(clientAddress(peer, xff, trusted)).toBe(expected);
  });

  test('TRUST_PROXY: CIDR ranges match their members only', () => {
    expect(local('10.255.255.255')).toBe(true);
    expect(local('11.0.0.1')).toBe(false);
    expect(local('2001:db8:ffff::1')).toBe(true);
    expect(local('not an ip')).toBe(false);
  });

  test('TRUST_PROXY: an entry that is not an address -> ConfigError naming TRUST_PROXY', () => {
    expect(() => trustedProxies(['1.2.3.999'])).toThrow(ConfigError);
    expect(() => trustedProxies(['10.0.0.0/33'])).toThrow(/TRUST_PROXY/);
  });
});
