/**
 * Who the client is, as the front tells the sidecar in X-Forwarded-For. Only the front writes
 * that header: whatever a client sends is replaced, never appended to. A proxy in front of the
 * front is believed only when its address is configured (TRUST_PROXY).
 */
import { BlockList, isIP } from 'node:net';
import { ConfigError } from '../config.ts';

export type Trusted = (address: string) => boolean;

/** TRUST_PROXY entries (addresses or CIDR ranges) as a predicate; an empty list trusts nobody. */
export function trustedProxies(entries: readonly string[]): Trusted {
  if (!entries.length) return () => false;
  const list = new BlockList();
  const problems: string[] = [];
  for (const entry of entries) {
    const [address, bits] = entry.split('/');
    const family = isIP(address);
    const prefix = bits === undefined ? undefined : Number(bits);
    if (!family || (prefix !== undefined && !(Number.isInteger(prefix) && prefix >= 0 && prefix <= (family === 4 ? 32 : 128)))) {
      problems.push(`TRUST_PROXY=${JSON.stringify(entries.join(','))}: "${entry}" is not an IP address or CIDR range`);
      continue;
    }
    const type = family === 4 ? 'ipv4' : 'ipv6';
    if (prefix === undefined) list.addAddress(address, type);
    else list.addSubnet(address, prefix, type);
  }
  if (problems.length) throw new ConfigError(problems);
  return (address) => {
    const family = isIP(address);
    return family !== 0 && list.check(address, family === 4 ? 'ipv4' : 'ipv6');
  };
}

/** `::ffff:192.0.2.1` (an IPv4 client on a dual-stack socket) is reported as `192.0.2.1`. */
export function normalizeAddress(address: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  return mapped ? mapped[1] : address;
}

/**
 * The client address: the socket peer, unless the peer is a trusted proxy. Then X-Forwarded-For
 * is walked from the right (each hop appends the address it saw), skipping trusted hops; the
 * first untrusted address is the client. An entry that is not an IP address ends the walk, and
 * the last trusted hop, which passed it on, is taken as the client instead. When every hop is
 * trusted, the leftmost one is.
 */
export function clientAddress(peer: string, forwardedFor: string | undefined, trusted: Trusted): string {
  let client = normalizeAddress(peer);
  if (!forwardedFor || !trusted(client)) return client;
  const hops = forwardedFor.split(',');
  for (let i = hops.length - 1; i >= 0; i--) {
    const hop = normalizeAddress(stripPort(hops[i].trim()));
    if (!isIP(hop)) return client;
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
