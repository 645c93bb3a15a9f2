/**
 * How the front's and the sidecar's HTTP servers stop: no new connections, the requests in flight
 * answered, then closed.
 */
import type { Server } from 'node:http';

/**
 * Stops taking connections and resolves once the requests in flight are answered. server.close()
 * closes the idle kept-alive connections at once; those busy now are closed as they fall idle;
 * whatever is still open after `graceMs` is cut.
 */
export async function closeGracefully(server: Server, graceMs: number): Promise<void> {
  const closed = new Promise<void>((done) => server.close(() => done()));
  const idle = setInterval(() => server.closeIdleConnections(), 25);
  const cut = setTimeout(() => server.closeAllConnections(), graceMs);
  await closed;
  clearInterval(idle);
  clearTimeout(cut);
}
