/**
 * The floor of the static comparison: the least any node:http server can do to answer a file, the
 * same bytes as the front from memory, with a type and a length and nothing else (no negotiation,
 * no validators, no security headers, no request line). What the front costs above this is the
 * price of its own work; what this costs is node:http's.
 * Usage: node scripts/bench/floor-server.ts <dist-dir>; prints `listening on <url>`.
 */
import { readdir, readFile } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { contentTypeOf } from '../../api/front/media-types.ts';

const root = path.resolve(process.argv[2] ?? 'dist');
/** URL path -> the header array and body, decided once. */
const answers = new Map<string, [string[], Buffer]>();
for (const entry of await readdir(root, { recursive: true, withFileTypes: true })) {
  if (!entry.isFile()) continue;
  const file = path.join(entry.parentPath, entry.name);
  const url = `/${path.relative(root, file).split(path.sep).join('/')}`.replace(/(^|\/)index\.html$/, '$1');
  const body = await readFile(file);
  const type = contentTypeOf(url.endsWith('/') ? `${url}index.html` : url) ?? 'application/octet-stream';
  answers.set(url, [['Content-Type', type, 'Content-Length', String(body.length)], body]);
}

const server = http.createServer((req, res) => {
  const answer = answers.get(req.url ?? '/');
  if (!answer) return void res.writeHead(404, ['Content-Length', '0']).end();
  res.writeHead(200, answer[0]);
  res.end(req.method === 'HEAD' ? undefined : answer[1]);
});

server.listen(0, '127.0.0.1', () => {
  console.log(`listening on http://127.0.0.1:${(server.address() as AddressInfo).port}`);
});
process.on('SIGTERM', () => process.exit(0));
