/**
 * The front's HTTP server: deadlines for slow clients, a cap on connections per client, the one
 * answer to what node:http's parser refuses, and a stop that does not cut requests in flight.
 * docs/front.md "Timeouts and limits" says what each limit is and why its default.
 */
import { once } from 'node:events';
import http from 'node:http';
import type net from 'node:net';
import { addressBucket, type Trusted } from '../net/client-address.ts';
import { closeGracefully } from '../net/close-gracefully.ts';
import { REFUSED, REFUSED_BYTES, sendOwn } from './own-answers.ts';

export interface ServerLimits {
  headersTimeoutMs?: number;
  requestTimeoutMs?: number;
  keepAliveTimeoutMs?: number;
  perClient?: { max: number; trusted: Trusted; ipv6PrefixBits: number };
}

export async function listen(handler: http.RequestListener, host: string, port: number, limits: ServerLimits = {}) {
  const headersTimeout = limits.headersTimeoutMs ?? 10_000;
  const requestTimeout = limits.requestTimeoutMs ?? 30_000;
  // The latest request handed over on each connection, so that a parser error can tell whether it
  // belongs to a request the handler holds.
  const latest = new WeakMap<net.Socket, http.ServerResponse>();
  const serve: http.RequestListener = (req, res) => {
    latest.set(req.socket, res);
    handler(req, res);
  };
  const server = http.createServer(
    {
      keepAliveTimeout: limits.keepAliveTimeoutMs ?? 5_000,
      headersTimeout,
      requestTimeout,
      // node:http checks both deadlines only on this tick: a deadline is kept to within a quarter
      // of itself (at most 1 s late).
      connectionsCheckingInterval: Math.max(10, Math.min(1_000, Math.floor(Math.min(headersTimeout, requestTimeout) / 4))),
      // RFC 9112 §3.2's 400 for a missing Host is the handler's (target.ts): node:http's own is bare.
      requireHostHeader: false,
    },
    serve,
  );
  // A client that half-closes after its request still gets the answer (RFC 9112 §9.6 lets a client
  // end its side first); by default node:http would end ours at once, before the answer is written.
  (server as http.Server & { httpAllowHalfOpen: boolean }).httpAllowHalfOpen = true;
  if (limits.perClient) capConnections(server, limits.perClient);
  // Connections refused already: the parser reports the rest of their bytes too, which changes nothing.
  const refused = new WeakSet<net.Socket>();
  server.on('clientError', (error: NodeJS.ErrnoException, socket: net.Socket) => {
    if (refused.has(socket)) return;
    refused.add(socket);
    refuseUnparsed(error, socket, latest.get(socket));
  });
  // The front opens no tunnels (it is no proxy): CONNECT is refused like a request it cannot carry.
  server.on('connect', (_req: http.IncomingMessage, socket: net.Socket) => {
    socket.on('error', () => socket.destroy());
    socket.end(REFUSED_BYTES, () => socket.destroy());
  });
  // RFC 9110 §10.1.1: an expectation other than 100-continue may be ignored, and is: node:http's
  // own answer would be a bare 417, a status the contract does not have.
  server.on('checkExpectation', serve);
  server.listen(port, host);
  await once(server, 'listening');
  const address = server.address() as net.AddressInfo;
  const shownHost = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  let closing: Promise<void> | undefined;
  return {
    server,
    /** e.g. http://127.0.0.1:4321 (IPv6 hosts in brackets). */
    url: `http://${shownHost}:${address.port}`,
    /** Stops accepting, lets requests in flight finish (at most graceMs), then closes what is left. */
    close: (graceMs = 10_000) => (closing ??= closeGracefully(server, graceMs)),
  };
}

export type Listening = Awaited<ReturnType<typeof listen>>;

/**
 * node:http's parser has the last word on what is HTTP (docs/front.md, "Timeouts and limits"): the
 * answer is REFUSED, and the connection closes (the parser cannot find the next request in it).
 */
function refuseUnparsed(error: NodeJS.ErrnoException, socket: net.Socket, last: http.ServerResponse | undefined): void {
  if (error.code === 'ECONNRESET' || !socket.writable) return void socket.destroy();
  if (last && !(last.writableFinished && last.req.complete)) {
    // The error is in a request the handler holds (its body's framing, or its deadline). An answer
    // already under way cannot be replaced: cut it. Otherwise the refusal is that request's answer.
    if (last.headersSent) return void socket.destroy();
    return sendOwn(last, REFUSED);
  }
  socket.end(REFUSED_BYTES, () => socket.destroy());
}

/** One client holding many slow connections cannot use up the front's sockets for everyone else. */
function capConnections(server: http.Server, { max, trusted, ipv6PrefixBits }: NonNullable<ServerLimits['perClient']>): void {
  // Only buckets with open connections are held: the map never outgrows the open sockets.
  const open = new Map<string, number>();
  server.on('connection', (socket: net.Socket) => {
    const peer = socket.remoteAddress;
    // A trusted proxy carries many clients.
    if (!peer || trusted(peer)) return;
    const bucket = addressBucket(peer, ipv6PrefixBits);
    const count = (open.get(bucket) ?? 0) + 1;
    if (count > max) return void socket.destroy();
    open.set(bucket, count);
    socket.once('close', () => {
      const left = open.get(bucket)! - 1;
      if (left) open.set(bucket, left);
      else open.delete(bucket);
    });
  });
}
