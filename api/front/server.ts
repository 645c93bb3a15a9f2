/**
 * The front's HTTP server: listen with deadlines for slow clients, and stop without cutting
 * requests in flight.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Listening {
  server: http.Server;
  /** e.g. http://127.0.0.1:4321 (IPv6 hosts in brackets). */
  url: string;
  /** Stops accepting, lets requests in flight finish (at most graceMs), then closes what is left. */
  close(graceMs?: number): Promise<void>;
}

/** docs/front.md "Timeouts and limits": what each one is and why its default. */
export interface ServerLimits {
  /** From the connection (or the previous request) to the end of the headers. */
  headersTimeoutMs?: number;
  /** From the start of a request to the end of its body. */
  requestTimeoutMs?: number;
  /** How long an idle kept-alive connection stays open. */
  keepAliveTimeoutMs?: number;
  /** Attaches connection and parser-error handling before the first connection can arrive; `handler` is the server's. */
  prepare?: (server: http.Server, handler: http.RequestListener) => void;
}

export async function listen(handler: http.RequestListener, host: string, port: number, limits: ServerLimits = {}): Promise<Listening> {
  const headersTimeout = limits.headersTimeoutMs ?? 10_000;
  const requestTimeout = limits.requestTimeoutMs ?? 30_000;
  const server = http.createServer(
    {
      keepAliveTimeout: limits.keepAliveTimeoutMs ?? 5_000,
      headersTimeout,
      requestTimeout,
      // node:http checks both deadlines only on this tick: a deadline is kept to within a quarter
      // of itself (at most 1 s late).
      connectionsCheckingInterval: Math.max(10, Math.min(1_000, Math.floor(Math.min(headersTimeout, requestTimeout) / 4))),
      // RFC 9112 §3.2's 400 for a missing Host is the handler's (host-field.ts): node:http's own is bare.
      requireHostHeader: false,
    },
    handler,
  );
  // A client that half-closes after its request still gets the answer (RFC 9112 §9.6 lets a client
  // end its side first); by default node:http would end ours at once, before the answer is written.
  (server as http.Server & { httpAllowHalfOpen: boolean }).httpAllowHalfOpen = true;
  limits.prepare?.(server, handler);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const shownHost = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  let closing: Promise<void> | undefined;
  return {
    server,
    url: `http://${shownHost}:${address.port}`,
    close: (graceMs = 10_000) => (closing ??= closeGracefully(server, graceMs)),
  };
}

async function closeGracefully(server: http.Server, graceMs: number): Promise<void> {
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  // Kept-alive connections with no request in flight go now; busy ones as soon as they fall idle.
  server.closeIdleConnections();
  const sweep = setInterval(() => server.closeIdleConnections(), 25);
  const deadline = new Promise<'late'>((resolve) => setTimeout(resolve, graceMs, 'late').unref());
  if ((await Promise.race([closed, deadline])) === 'late') server.closeAllConnections();
  clearInterval(sweep);
  await closed;
}
