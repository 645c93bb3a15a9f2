/**
 * A cap on concurrent connections per client address (MAX_CONNECTIONS_PER_CLIENT): one client
 * holding many slow connections cannot use up the front's sockets and memory for everyone else.
 * IPv6 clients are counted per RATE_LIMIT_IPV6_PREFIX network, like the rate limits. A connection
 * over the cap is closed at once, before anything is read. Connections from a trusted proxy
 * (TRUST_PROXY) are not capped: they carry many clients.
 */
import type net from 'node:net';
import { addressBucket, type Trusted } from '../net/client-address.ts';

export interface GuardOptions {
  maxPerClient: number;
  trusted: Trusted;
  ipv6PrefixBits: number;
}

export function guardConnections(server: net.Server, options: GuardOptions): { open(): ReadonlyMap<string, number> } {
  // Only buckets with open connections are held: the map never outgrows the open sockets.
  const open = new Map<string, number>();
  server.on('connection', (socket: net.Socket) => {
    const peer = socket.remoteAddress;
    if (!peer || options.trusted(peer)) return;
    const bucket = addressBucket(peer, options.ipv6PrefixBits);
    const count = (open.get(bucket) ?? 0) + 1;
    if (count > options.maxPerClient) return void socket.destroy();
    open.set(bucket, count);
    socket.once('close', () => {
      const left = open.get(bucket)! - 1;
      if (left) open.set(bucket, left);
      else open.delete(bucket);
    });
  });
  return { open: () => open };
}
