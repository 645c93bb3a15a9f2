/**
 * The "naive" baseline of the front benchmark: a plain Node server that resolves each request
 * against dist/ on disk and streams the file (fs.stat + fs.createReadStream per request), the way
 * a `send`-per-request server does. `send` itself is not installed in this project (it came with
 * @astrojs/node, which the site does not use), so this is the same work without the package.
 * Usage: node scripts/bench/naive-server.ts <dist-dir>; prints `listening on <url>`.
 */
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { contentTypeOf } from '../../api/front/media-types.ts';

const root = path.resolve(process.argv[2] ?? 'dist');

const server = http.createServer(async (req, res) => {
  if (req.method !== 'GET' && req.method !== 'HEAD') return void res.writeHead(405, { Allow: 'GET, HEAD' }).end();
  let pathname: string;
  try {
    pathname = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
  } catch {
    return void res.writeHead(400).end();
  }
  let file = path.join(root, pathname);
  if (!file.startsWith(root)) return void res.writeHead(404).end();
  let info = await stat(file).catch(() => undefined);
  if (info?.isDirectory()) {
    if (!pathname.endsWith('/')) return void res.writeHead(301, { Location: `${pathname}/` }).end();
    file = path.join(file, 'index.html');
    info = await stat(file).catch(() => undefined);
  }
  if (!info?.isFile()) return void res.writeHead(404).end();
  res.writeHead(200, {
    'Content-Type': contentTypeOf(file.slice(root.length)) ?? 'application/octet-stream',
    'Content-Length': info.size,
    ETag: `W/"${info.size.toString(16)}-${info.mtimeMs.toString(16)}"`,
    'Last-Modified': info.mtime.toUTCString(),
    'Cache-Control': 'public, max-age=0',
  });
  if (req.method === 'HEAD') return void res.end();
  createReadStream(file).pipe(res);
});

server.listen(0, '127.0.0.1', () => {
  console.log(`listening on http://127.0.0.1:${(server.address() as AddressInfo).port}`);
});
process.on('SIGTERM', () => process.exit(0));
