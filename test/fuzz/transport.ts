/**
 * Sends a generated request and reads its answer: `http` through node:http on kept-alive
 * connections, `raw` as bytes on a node:net socket with a small HTTP/1.1 response parser.
 * A request that gets no answer within TIMEOUT_MS is a hang.
 */
import http from 'node:http';
import net from 'node:net';
import { incomplete, rawBytes } from './raw-flaws.ts';
import type { FuzzRequest } from './requests.ts';

export type Answer =
  | { kind: 'response'; status: number; headers: Headers; text: string; body: unknown }
  /** The connection ended (or was reset) before a complete response head arrived. */
  | { kind: 'closed'; detail: string }
  | { kind: 'timeout' };

export const TIMEOUT_MS = 10_000;

export interface Target {
  host: string;
  port: number;
  agent: http.Agent;
}

export function targetOf(url: string): Target {
  const { hostname, port } = new URL(url);
  return { host: hostname, port: Number(port), agent: new http.Agent({ keepAlive: true, maxSockets: 16 }) };
}

export function send(to: Target, req: FuzzRequest): Promise<Answer> {
  return req.channel === 'http' ? sendHttp(to, req) : sendRaw(to, req);
}

function answer(status: number, headers: Headers, text: string): Answer {
  let body: unknown;
  if (text && /json/i.test(headers.get('content-type') ?? '')) {
    try {
      body = JSON.parse(text);
    } catch {
      body = undefined;
    }
  }
  return { kind: 'response', status, headers, text, body };
}

function sendHttp(to: Target, req: FuzzRequest): Promise<Answer> {
  return new Promise((done) => {
    // Raw (array) headers get no Host from node:http; HTTP/1.1 requires one (RFC 9112 §3.2).
    const headers: [string, string][] = [['host', `${to.host}:${to.port}`], ...req.headers];
    if (req.body.length && !req.chunked) headers.push(['content-length', String(req.body.length)]);
    // node:http frames a written body by itself only for methods that usually carry one: for GET,
    // HEAD, DELETE, OPTIONS and TRACE it would send the bytes unframed, where the server rightly
    // reads them as the start of the next request. Say chunked, and node:http frames it.
    if (req.body.length && req.chunked) headers.push(['transfer-encoding', 'chunked']);
    const out = http.request({ host: to.host, port: to.port, agent: to.agent, method: req.method, path: req.target, headers: headers.flat(), timeout: TIMEOUT_MS });
    out.on('timeout', () => {
      out.destroy();
      done({ kind: 'timeout' });
    });
    out.on('error', (error) => done({ kind: 'closed', detail: (error as NodeJS.ErrnoException).code ?? error.message }));
    out.on('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('error', (error) => done({ kind: 'closed', detail: `body: ${error.message}` }));
      res.on('end', () => {
        const h = new Headers();
        for (let i = 0; i < res.rawHeaders.length; i += 2) h.append(res.rawHeaders[i]!, res.rawHeaders[i + 1]!);
        done(answer(res.statusCode ?? 0, h, Buffer.concat(chunks).toString('utf8')));
      });
    });
    if (req.body.length && req.chunked) {
      const half = req.body.length >> 1;
      out.write(req.body.subarray(0, half));
      out.end(req.body.subarray(half));
    } else out.end(req.body.length ? req.body : undefined);
  });
}

function sendRaw(to: Target, req: FuzzRequest): Promise<Answer> {
  return new Promise((done) => {
    const chunks: Buffer[] = [];
    let error = '';
    // A request that never completes is ended (FIN), so the server sees the body cut short; any
    // other keeps its side open like an ordinary client, and `Connection: close` ends the exchange.
    const socket = net.connect(to.port, to.host, () => (incomplete(req) ? socket.end(rawBytes(req)) : socket.write(rawBytes(req))));
    const timer = setTimeout(() => {
      socket.destroy();
      done({ kind: 'timeout' });
    }, TIMEOUT_MS);
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', (e: NodeJS.ErrnoException) => (error = e.code ?? e.message));
    socket.on('close', () => {
      clearTimeout(timer);
      done(parseResponse(Buffer.concat(chunks), req.method === 'HEAD') ?? { kind: 'closed', detail: error || 'no response' });
    });
  });
}

/** The first final (non-1xx) response in `bytes`, or undefined when no complete head is there. */
export function parseResponse(bytes: Buffer, head: boolean): Answer | undefined {
  let rest = bytes;
  for (;;) {
    const end = rest.indexOf('\r\n\r\n');
    if (end === -1) return undefined;
    const [statusLine, ...lines] = rest.subarray(0, end).toString('latin1').split('\r\n');
    const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(statusLine!)?.[1]);
    if (!status) return undefined;
    const headers = new Headers();
    for (const line of lines) {
      const colon = line.indexOf(':');
      if (colon > 0) headers.append(line.slice(0, colon).trim(), line.slice(colon + 1).trim());
    }
    rest = rest.subarray(end + 4);
    if (status < 200) continue;
    if (head || status === 204 || status === 304) return answer(status, headers, '');
    const length = headers.get('content-length');
    const body = /chunked/i.test(headers.get('transfer-encoding') ?? '') ? dechunk(rest) : length !== null ? rest.subarray(0, Number(length)) : rest;
    return answer(status, headers, body.toString('utf8'));
  }
}

function dechunk(bytes: Buffer): Buffer {
  const out: Buffer[] = [];
  let at = 0;
  for (;;) {
    const eol = bytes.indexOf('\r\n', at);
    if (eol === -1) break;
    const size = Number.parseInt(bytes.subarray(at, eol).toString('latin1'), 16);
    if (!size) break;
    out.push(bytes.subarray(eol + 2, eol + 2 + size));
    at = eol + 2 + size + 2;
  }
  return Buffer.concat(out);
}
