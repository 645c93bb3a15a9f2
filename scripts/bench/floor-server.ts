/**
 * The floor of the static comparison: the least any node:http server can do to answer a file with
 * the same bytes as the front, headers included. Each URL's answer (the front's own 200 header
 * array and body for a client that asks for no coding, as the bench's client does) is looked up in
 * a map and written; no negotiation, no validators, no request line. What the front costs above
 * this is the price of its own work; what this costs is node:http's.
 * Usage: node scripts/bench/floor-server.ts <dist-dir>; prints `listening on <url>`.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { configOrExit } from '../../api/config.ts';
import { loadSite } from '../../api/front/static.ts';
import type { RawHeaders } from '../../api/front/headers.ts';

const root = path.resolve(process.argv[2] ?? 'dist');
// The front's own settings (the bench gives both the same environment): the same Link headers.
const site = await loadSite(root, configOrExit().BASE_URL);
/** URL path -> the header array and body, decided once. */
const answers = new Map<string, [RawHeaders, Buffer]>();
for (const [url, route] of site.routes) {
  const rep = route.kind === 'page' ? route.html : route.kind === 'file' ? route.rep : undefined;
  if (rep) answers.set(url, [rep.encoded.identity.ok, rep.encoded.identity.body]);
}

const server = http.createServer((req, res) => {
  const answer = answers.get(req.url ?? '/');
  if (!answer) return void res.writeHead(404, ['Content-Length', '0']).end();
  res.writeHead(200, answer[0] as string[]);
  res.end(req.method === 'HEAD' ? undefined : answer[1]);
});

server.listen(0, '127.0.0.1', () => {
  console.log(`listening on http://127.0.0.1:${(server.address() as AddressInfo).port}`);
});
process.on('SIGTERM', () => process.exit(0));
