/**
 * Which client a request counts against (contract part 8: "per source address").
 *
 * The front overwrites `X-Forwarded-For` with the single client address. The sidecar believes
 * that header only when the TCP peer is a trusted hop: a loopback address (the front on the same
 * host) or an entry of TRUST_PROXY. Otherwise the socket address counts. In-process requests
 * (`app.request` in tests) have no socket; they are treated like requests from the front, so tests
 * set the client address through the same header.
 */
import { BlockList, isIP } from 'node:net';

export type TrustCheck = (address: string) => boolean;

/** Loopback plus the configured proxy addresses and CIDR ranges. */
export function trustedProxies(entries: readonly string[]): TrustCheck {
  const list = new BlockList();
  list.addSubnet('127.0.0.0', 8, 'ipv4');
  list.addAddress('::1', 'ipv6');
  for (const entry of entries) {
    const [address, bits] = entry.split('/');
    const family = isIP(address) === 6 ? 'ipv6' : 'ipv4';
    if (bits === undefined) list.addAddress(address, family);
    else list.addSubnet(address, Number(bits), family);
  }
  return (address) => {
    const plain = unmapIPv4(address);
    const family = isIP(plain);
    return family !== 0 && list.check(plain, family === 6 ? 'ipv6' : 'ipv4');
  };
}

/** The client address: the rightmost X-Forwarded-For entry from a trusted peer, else the peer. */
export function resolveClientAddress(
  peer: string | undefined,
  forwardedFor: string | null,
  trusted: TrustCheck,
): string | undefined {
  if (forwardedFor && (peer === undefined || trusted(peer))) {
    const candidate = forwardedFor.split(',').pop()!.trim();
    if (isIP(stripZone(candidate))) return candidate;
  }
  return peer;
}

/**
 * The rate-limit bucket of an address: IPv4 (also IPv4-mapped IPv6) as is, other IPv6 reduced to
 * its network of `ipv6PrefixBits` (one customer usually holds a whole /64).
 */
export function addressBucket(address: string | undefined, ipv6PrefixBits: number): string {
  if (!address) return 'unknown';
  const plain = unmapIPv4(stripZone(address));
  if (isIP(plain) !== 6) return plain;
  const groups = expandIPv6(plain);
  const masked: string[] = [];
  for (let i = 0; i < 8; i++) {
    const keep = Math.max(0, Math.min(16, ipv6PrefixBits - i * 16));
    const mask = keep === 0 ? 0 : (0xffff << (16 - keep)) & 0xffff;
    masked.push((groups[i] & mask).toString(16));
  }
  return `${masked.join(':')}/${ipv6PrefixBits}`;
}

function stripZone(address: string): string {
  const percent = address.indexOf('%');
  return percent === -1 ? address : address.slice(0, percent);
}

/** `::ffff:192.0.2.1` (and its hex form) -> `192.0.2.1`; anything else unchanged. */
function unmapIPv4(address: string): string {
  if (isIP(address) !== 6) return address;
  const groups = expandIPv6(address);
  const mapped = groups.slice(0, 5).every((g) => g === 0) && groups[5] === 0xffff;
  if (!mapped) return address;
  return [groups[6] >> 8, groups[6] & 0xff, groups[7] >> 8, groups[7] & 0xff].join('.');
}

/** Eight 16-bit groups of a valid IPv6 address (with `::` and an optional dotted IPv4 tail). */
function expandIPv6(address: string): number[] {
  let text = address.toLowerCase();
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted.slice(1).map(Number);
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.includes('::') ? text.split('::') : [text, undefined];
  const headGroups = head ? head.split(':') : [];
  const tailGroups = tail ? tail.split(':') : [];
  const zeros = tail === undefined ? [] : new Array(8 - headGroups.length - tailGroups.length).fill('0');
  return [...headGroups, ...zeros, ...tailGroups].map((g) => parseInt(g, 16));
}
