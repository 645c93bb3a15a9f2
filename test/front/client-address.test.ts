/** The one client-address module of both processes (api/net/client-address.ts). */
import { describe, expect, test } from 'vitest';
import { ConfigError } from '../../api/config.ts';
import { addressBucket, clientAddress, normalizeAddress, trustedProxies, type Trusted } from '../../api/net/client-address.ts';

const none = trustedProxies([]);
const local = trustedProxies(['127.0.0.1', '10.0.0.0/8', '2001:db8::/32']);
/** The sidecar's view: its Unix socket has no peer address, plus the configured proxies. */
const sidecar = trustedProxies(['10.0.0.0/8', '2001:db8:ffff::1'], { peerless: true });

describe('client address (X-Forwarded-For, TRUST_PROXY)', () => {
  const cases: [name: string, peer: string | undefined, xff: string | undefined, trusted: Trusted, expected: string | undefined][] = [
    ['untrusted peer: its own address, the header is ignored', '203.0.113.9', '6.6.6.6', none, '203.0.113.9'],
    ['nobody trusted: even loopback peers are taken as they are', '127.0.0.1', '6.6.6.6', none, '127.0.0.1'],
    ['IPv4-mapped IPv6 peer is reported as IPv4', '::ffff:203.0.113.9', undefined, none, '203.0.113.9'],
    ['IPv4-mapped peer in hex form is reported as IPv4', '::ffff:cb00:7109', undefined, none, '203.0.113.9'],
    ['IPv6 peer in canonical form (RFC 5952)', '2001:DB8:0:0:0:0:0:1', undefined, none, '2001:db8::1'],
    ['trusted peer, no header: the peer', '127.0.0.1', undefined, local, '127.0.0.1'],
    ['trusted peer: the rightmost untrusted entry', '127.0.0.1', '6.6.6.6, 198.51.100.4', local, '198.51.100.4'],
    ['trusted hops on the right are skipped', '127.0.0.1', '6.6.6.6, 198.51.100.4, 10.1.2.3', local, '198.51.100.4'],
    ['all hops trusted: the leftmost', '127.0.0.1', '10.0.0.5, 10.0.0.6', local, '10.0.0.5'],
    ['garbage ends the walk at the trusted hop that passed it on', '127.0.0.1', 'evil, 10.0.0.7', local, '10.0.0.7'],
    ['garbage right at the peer: the peer', '127.0.0.1', '6.6.6.6, not-an-ip', local, '127.0.0.1'],
    ['short IPv4 forms are not addresses (127.1, 0x7f.0.0.1)', '127.0.0.1', '127.1', local, '127.0.0.1'],
    ['ports and brackets are dropped', '127.0.0.1', '198.51.100.4:5555', local, '198.51.100.4'],
    ['IPv6 hops', '127.0.0.1', '[2001:db9::1]:443, 2001:db8::5', local, '2001:db9::1'],
    ['IPv4-mapped hops are reported as IPv4', '::ffff:127.0.0.1', '::ffff:198.51.100.4', local, '198.51.100.4'],
    ['sidecar: peerless (Unix socket, in-process): the header counts', undefined, '198.51.100.6', sidecar, '198.51.100.6'],
    ['sidecar: peerless and no header: unknown', undefined, undefined, sidecar, undefined],
    ['sidecar: loopback peer over TCP is not trusted as such', '127.0.0.1', '198.51.100.1', sidecar, '127.0.0.1'],
    ['sidecar: configured proxy range', '10.1.2.3', '198.51.100.4', sidecar, '198.51.100.4'],
    ['sidecar: configured proxy address (IPv6)', '2001:db8:ffff::1', '2001:db8::5', sidecar, '2001:db8::5'],
    ['front: a peerless request is never trusted', undefined, '198.51.100.6', local, undefined],
  ];
  test.each(cases)('X-Forwarded-For: %s', (_name, peer, xff, trusted, expected) => {
    expect(clientAddress(peer, xff, trusted)).toBe(expected);
  });

  const members: [entry: string, address: string, member: boolean][] = [
    ['10.0.0.0/8', '10.255.255.255', true],
    ['10.0.0.0/8', '11.0.0.1', false],
    ['10.0.0.0/8', '::ffff:10.1.1.1', true],
    ['2001:db8::/32', '2001:db8:ffff::1', true],
    ['2001:db8::/32', '2001:db9::1', false],
    ['::ffff:10.0.0.0/104', '10.9.9.9', true],
    ['127.0.0.1', '127.0.0.2', false],
    ['127.0.0.1', 'not an ip', false],
    ['0.0.0.0/0', '::1', false],
  ];
  test.each(members)('TRUST_PROXY: %s contains %s -> %s', (entry, address, member) => {
    expect(trustedProxies([entry])(address)).toBe(member);
  });

  test.each(['1.2.3.999', '10.0.0.0/33', '2001:db8::/129', '10.0.0.0/8/8', 'example.org', '10.0.0.0/x'])(
    'TRUST_PROXY: "%s" -> ConfigError naming TRUST_PROXY',
    (entry) => {
      expect(() => trustedProxies([entry])).toThrow(ConfigError);
      expect(() => trustedProxies([entry])).toThrow(/TRUST_PROXY/);
    },
  );
});

describe('rate-limit bucket of an address', () => {
  const cases: [address: string | undefined, prefix: number, bucket: string][] = [
    ['192.0.2.1', 64, '192.0.2.1'],
    ['::ffff:192.0.2.1', 64, '192.0.2.1'],
    ['::ffff:c000:201', 64, '192.0.2.1'],
    ['2001:db8:1:2:3:4:5:6', 64, '2001:db8:1:2::/64'],
    ['2001:db8:1:2::%eth0', 64, '2001:db8:1:2::/64'],
    ['2001:DB8:1:2:ffff::1', 64, '2001:db8:1:2::/64'],
    ['2001:db8:1:2ff::1', 56, '2001:db8:1:200::/56'],
    ['2001:db8:1:2:3:4:5:6', 128, '2001:db8:1:2:3:4:5:6/128'],
    ['not-an-ip', 64, 'unknown'],
    [undefined, 64, 'unknown'],
  ];
  test.each(cases)('bucket: %s with IPv6 prefix /%i -> %s', (address, prefix, bucket) => {
    expect(addressBucket(address, prefix)).toBe(bucket);
  });

  test('bucket: every address of one IPv6 /64 shares one bucket, the next /64 does not', () => {
    expect(addressBucket('2001:db8::1', 64)).toBe(addressBucket('2001:db8::ffff:ffff:ffff:ffff', 64));
    expect(addressBucket('2001:db8::1', 64)).not.toBe(addressBucket('2001:db8:0:1::1', 64));
  });

  test('normalize: not an address -> undefined', () => {
    expect(normalizeAddress('999.1.1.1')).toBeUndefined();
    expect(normalizeAddress('')).toBeUndefined();
  });
});
