/**
 * The floor of the probe comparison: the least a node:http reverse proxy can do (no header
 * rules, no timeouts, no error page). Whatever it adds to the sidecar's latency, any proxy in a
 * separate Node process adds at least as much. Usage: node scripts/bench/bare-proxy.ts <host> <port>.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

const [host, port] = process.argv.slice(2);
const agent = new http.Agent({ keepAlive: true });
const server = http.createServer((req, res) => {
  const out = http.request({ host, port, method: req.method, path: req.url, headers: req.headers, agent }, (answer) => {
    res.writeHead(answer.statusCode ?? 502, answer.rawHeaders);
    answer.pipe(res);
  });
  out.on('error', () => res.writeHead(502).end());
  req.pipe(out);
});
server.listen(0, '127.0.0.1', () => console.log(`listening on http://127.0.0.1:${(server.address() as AddressInfo).port}`));
process.on('SIGTERM', () => process.exit(0));
