/**
 * The floor of the probe comparison: the least a Node reverse proxy can do (no header rules, no
 * timeouts, no error page), in two ways, so the client side can be chosen by measurement:
 * - `http`: node:http's ClientRequest over a keep-alive Agent;
 * - `undici`: undici's Pool driven through dispatch() with a handler object (no streams, no
 *   promises), kept-alive, one request per connection at a time.
 * Whatever the better of them adds to the sidecar's latency, any proxy in a separate Node process
 * adds at least as much.
 * Usage: node scripts/bench/bare-proxy.ts <http|undici> <host:port | /path/to/socket>.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Pool, type Dispatcher } from 'undici';

const [mode, target] = process.argv.slice(2);
const socketPath = target.startsWith('/') ? target : undefined;
const [host, port] = socketPath ? ['localhost', ''] : target.split(':');
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'transfer-encoding', 'upgrade', 'te', 'trailer', 'proxy-connection']);

function viaHttp(): http.RequestListener {
  const agent = new http.Agent({ keepAlive: true });
  return (req, res) => {
    const out = http.request({ host, port, socketPath, method: req.method, path: req.url, headers: req.headers, agent }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.rawHeaders);
      answer.pipe(res);
    });
    out.on('error', () => res.writeHead(502).end());
    req.pipe(out);
  };
}

function viaUndici(): http.RequestListener {
  const pool = new Pool(socketPath ? 'http://localhost' : `http://${target}`, { socketPath, pipelining: 1 });
  return (req, res) => {
    const headers: string[] = [];
    const raw = req.rawHeaders;
    for (let i = 0; i < raw.length; i += 2) if (!HOP_BY_HOP.has(raw[i].toLowerCase())) headers.push(raw[i], raw[i + 1]);
    const bodied = req.headers['content-length'] !== undefined || req.headers['transfer-encoding'] !== undefined;
    const handler: Dispatcher.DispatchHandler = {
      onRequestStart() {},
      onResponseStart(_controller, status, fields) {
        const out: string[] = [];
        for (const name in fields) if (!HOP_BY_HOP.has(name)) out.push(name, String(fields[name]));
        res.writeHead(status, out);
      },
      onResponseData(_controller, chunk) {
        res.write(chunk);
      },
      onResponseEnd() {
        res.end();
      },
      onResponseError() {
        if (res.headersSent) res.destroy();
        else res.writeHead(502).end();
      },
    };
    pool.dispatch({ method: req.method as Dispatcher.HttpMethod, path: req.url ?? '/', headers, body: bodied ? req : null }, handler);
  };
}

const server = http.createServer(mode === 'undici' ? viaUndici() : viaHttp());
server.listen(0, '127.0.0.1', () => console.log(`listening on http://127.0.0.1:${(server.address() as AddressInfo).port}`));
process.on('SIGTERM', () => process.exit(0));
