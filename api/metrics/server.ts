/**
 * The metrics listener: off unless METRICS_PORT is set, on METRICS_HOST (loopback by default),
 * never on the public port. GET /metrics answers the front's registry followed by the sidecar's.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Registry } from 'prom-client';

export interface MetricsServer {
  url: string;
  close(): Promise<void>;
}

export async function listenMetrics(registry: Registry, sidecarText: () => Promise<string | undefined>, host: string, port: number): Promise<MetricsServer> {
  const server = http.createServer(async (req, res) => {
    if ((req.url ?? '').split('?', 1)[0] !== '/metrics') return void res.writeHead(404, { 'content-type': 'text/plain' }).end('Not Found\n');
    if (req.method !== 'GET' && req.method !== 'HEAD') return void res.writeHead(405, { allow: 'GET, HEAD', 'content-type': 'text/plain' }).end();
    try {
      const [own, sidecar] = await Promise.all([registry.metrics(), sidecarText()]);
      const body = sidecar ? `${own}\n${sidecar}` : own;
      res.writeHead(200, { 'content-type': registry.contentType, 'cache-control': 'no-store' });
      res.end(req.method === 'HEAD' ? undefined : body);
    } catch (error) {
      res.writeHead(500, { 'content-type': 'text/plain' }).end(`${error instanceof Error ? error.message : String(error)}\n`);
    }
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => (server.off('error', reject), resolve()));
  });
  const { address, family, port: bound } = server.address() as AddressInfo;
  return {
    url: `http://${family === 'IPv6' ? `[${address}]` : address}:${bound}/metrics`,
    close: () => new Promise((resolve) => (server.close(() => resolve()), server.closeAllConnections())),
  };
}
