/**
 * Who the client is, for both processes (contract part 8: "per source address"), on ipaddr.js so
 * every spelling of an address parses one way. Whose X-Forwarded-For is believed: docs/api.md,
 * "Where the sidecar listens, and the client address".
 */
import ipaddr from 'ipaddr.js';
import { ConfigError } from '../config.ts';

type Address = ipaddr.IPv4 | ipaddr.IPv6;

/** Is this peer a hop whose X-Forwarded-For is believed? `undefined` = no peer address. */
export type Trusted = (peer: string | undefined) => boolean;

/** Strict parse: dotted-quad IPv4 or IPv6 (ipaddr.js alone also takes `1`, `0x7f.1`); undefined otherwise. */
function parse(text: string): Address | undefined {
  if (ipaddr.IPv4.isValidFourPartDecimal(text)) return ipaddr.IPv4.parse(text);
  // process(): ::ffff:a.b.c.d is an IPv4 client on a dual-stack socket.
  return ipaddr.IPv6.isValid(text) ? ipaddr.process(text) : undefined;
}

/** Canonical text of an address (IPv4 dotted, IPv6 per RFC 5952 without zone), or undefined. */
export function normalizeAddress(text: string): string | undefined {
  const address = parse(text);
  if (!address) return undefined;
  return address.kind() === 'ipv4' ? address.toString() : new ipaddr.IPv6((address as ipaddr.IPv6).parts).toRFC5952String();
}

/**
 * TRUST_PROXY entries (addresses or CIDR ranges) as a predicate; an empty list trusts no address.
 * `peerless`: believe connections without a peer address (the sidecar's Unix socket, in-process requests).
 */
export function trustedProxies(entries: readonly string[], { peerless = false }: { peerless?: boolean } = {}): Trusted {
  const ranges: [Address, number][] = [];
  const problems: string[] = [];
  for (const entry of entries) {
    const range = parseRange(entry);
    if (range) ranges.push(range);
    else problems.push(`TRUST_PROXY=${JSON.stringify(entries.join(','))}: "${entry}" is not an IP address or CIDR range`);
  }
  if (problems.length) throw new ConfigError(problems);
  return (peer) => {
    if (peer === undefined || peer === '') return peerless;
    const address = parse(peer);
    return address !== undefined && ranges.some(([net, bits]) => net.kind() === address.kind() && address.match(net, bits));
  };
}

function parseRange(entry: string): [Address, number] | undefined {
  const [text, bits, extra] = entry.split('/');
  const address = extra === undefined ? parse(text) : undefined;
  if (!address) return undefined;
  const max = address.kind() === 'ipv4' ? 32 : 128;
  if (bits === undefined) return [address, max];
  const prefix = /^\d{1,3}$/.test(bits) ? Number(bits) : NaN;
  // A mapped IPv4 entry with an IPv6 prefix (::ffff:10.0.0.0/104) is an IPv4 range.
  const own = text.includes(':') && address.kind() === 'ipv4' ? prefix - 96 : prefix;
  return own >= 0 && own <= max ? [address, own] : undefined;
}

/**
 * The client address: the peer, unless the peer is trusted. Then X-Forwarded-For is walked from
 * the right (each hop appends the address it saw), skipping trusted hops; the first untrusted
 * address is the client. An entry that is not an address ends the walk, and the trusted hop that
 * passed it on is the client. When every hop is trusted, the leftmost one is. Undefined only for
 * a peerless request without a usable header.
 */
export function clientAddress(peer: string | undefined, forwardedFor: string | null | undefined, trusted: Trusted): string | undefined {
  let client = peer ? (normalizeAddress(peer) ?? peer) : undefined;
  if (!forwardedFor || !trusted(peer)) return client;
  const hops = forwardedFor.split(',');
  for (let i = hops.length - 1; i >= 0; i--) {
    const hop = normalizeAddress(stripPort(hops[i].trim()));
    if (!hop) return client;
    client = hop;
    if (!trusted(hop)) return hop;
  }
  return client;
}

/** Some proxies write `192.0.2.1:1234` or `[2001:db8::1]:1234`. */
function stripPort(hop: string): string {
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(hop);
  if (bracketed) return bracketed[1];
  const v4 = /^(\d+\.\d+\.\d+\.\d+):\d+$/.exec(hop);
  return v4 ? v4[1] : hop;
}

/**
 * The rate-limit bucket of an address: IPv4 (also IPv4-mapped) as is, IPv6 as its network of
 * `ipv6PrefixBits` (one customer usually holds a whole /64), e.g. `2001:db8:1:2::/64`.
 */
export function addressBucket(address: string | undefined, ipv6PrefixBits: number): string {
  const normal = address ? normalizeAddress(address) : undefined;
  if (!normal) return 'unknown';
  if (!normal.includes(':')) return normal;
  return `${ipaddr.IPv6.networkAddressFromCIDR(`${normal}/${ipv6PrefixBits}`).toRFC5952String()}/${ipv6PrefixBits}`;
}
