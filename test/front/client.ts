/**
 * Raw HTTP for the front's tests. fetch() normalises paths (`/a/../b`, `%2e%2e`) before sending,
 * so traversal attempts and other odd request targets go out through node:http as written.
 */
import http from 'node:http';
import zlib from 'node:zlib';

export interface RawResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
  /** The body after undoing Content-Encoding. */
  text: string;
}

/** `from`: the loopback address to send from (e.g. 127.0.0.2), so the server sees another client. */
export function raw(base: string, target: string, init: { method?: string; headers?: Record<string, string>; body?: string | Buffer; from?: string } = {}): Promise<RawResponse> {
  const url = new URL(base);
  return new Promise((resolve, reject) => {
    const req = http.request({ host: url.hostname, port: url.port, method: init.method ?? 'GET', path: target, headers: init.headers, localAddress: init.from, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        const body = Buffer.concat(chunks);
        const coding = res.headers['content-encoding'];
        const plain = coding === 'br' ? zlib.brotliDecompressSync(body) : coding === 'gzip' ? zlib.gunzipSync(body) : body;
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body, text: plain.toString('utf8') });
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(init.body);
  });
}
