/**
 * The metrics listener on METRICS_HOST:METRICS_PORT, never on the public port (where unknown paths
 * stay 404, as the contract says): GET /metrics (the front's registry, then the sidecar's), /livez
 * and /readyz (docs/deploy.md, "Readiness: /livez and /readyz").
 */
import { once } from 'node:events';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Registry } from 'prom-client';
import type { Readiness } from './readiness.ts';

/** How /readyz answers when the API process gives no readiness (starting, restarting, stuck). */
const NO_SIDECAR = { ready: false, degraded: [], engines: [], error: 'the API process does not answer' };

function json(res: http.ServerResponse, status: number, body: unknown, head: boolean): void {
  res.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store' });
  res.end(head ? undefined : `${JSON.stringify(body)}\n`);
}

export async function listenMetrics(
  registry: Registry,
  sidecarText: () => Promise<string | undefined>,
  host: string,
  port: number,
  readiness: () => Promise<Readiness | undefined>,
) {
  const server = http.createServer(async (req, res) => {
    const path = (req.url ?? '').split('?', 1)[0];
    if (path !== '/metrics' && path !== '/livez' && path !== '/readyz') return void res.writeHead(404, { 'content-type': 'text/plain' }).end('Not Found\n');
    if (req.method !== 'GET' && req.method !== 'HEAD') return void res.writeHead(405, { allow: 'GET, HEAD', 'content-type': 'text/plain' }).end();
    const head = req.method === 'HEAD';
    if (path === '/livez') return json(res, 200, { live: true }, head);
    if (path === '/readyz') {
      const answer = (await readiness()) ?? NO_SIDECAR;
      return json(res, answer.ready ? 200 : 503, answer, head);
    }
    try {
      const [own, sidecar] = await Promise.all([registry.metrics(), sidecarText()]);
      const body = sidecar ? `${own}\n${sidecar}` : own;
      res.writeHead(200, { 'content-type': registry.contentType, 'cache-control': 'no-store' });
      res.end(req.method === 'HEAD' ? undefined : body);
    } catch (error) {
      res.writeHead(500, { 'content-type': 'text/plain' }).end(`${error instanceof Error ? error.message : String(error)}\n`);
    }
  });
  server.listen(port, host);
  await once(server, 'listening');
  const { address, family, port: bound } = server.address() as AddressInfo;
  return {
    url: `http://${family === 'IPv6' ? `[${address}]` : address}:${bound}/metrics`,
    close: () => new Promise<void>((resolve) => (server.close(() => resolve()), server.closeAllConnections())),
  };
}

export type MetricsServer = Awaited<ReturnType<typeof listenMetrics>>;
