/**
 * /api/… and /sandbox/api/… go to the sidecar: same method, path and query, bodies streamed both
 * ways (never buffered whole), over kept-alive connections. When the sidecar is down, slow to
 * connect or dies mid-request, the client gets the contract's JSON 500 instead of a hang.
 */
import http from 'node:http';
import { API_VERSION, ERROR_MESSAGES, ERROR_STATUS } from '../contract/index.ts';
import { clientAddress, type Trusted } from './client-address.ts';

export interface Upstream {
  host: string;
  port: number;
}

export interface ProxyOptions {
  /** Where the sidecar is now; undefined while it is down or (re)starting. */
  upstream: () => Upstream | undefined;
  trusted: Trusted;
  /** No connection within this many ms counts as the sidecar being down. */
  connectTimeoutMs?: number;
  /** No byte either way for this many ms ends the exchange. */
  idleTimeoutMs?: number;
  onError?: (message: string) => void;
}

/** Paths the sidecar owns; everything else is the site. */
export function isApiPath(target: string): boolean {
  return /^\/(sandbox\/)?api(\/|\?|$)/.test(target);
}

/** RFC 9110 §7.6.1: connection-specific fields are not forwarded. */
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-connection', 'te', 'trailer', 'transfer-encoding', 'upgrade', 'proxy-authorization', 'proxy-authenticate']);
/** The client's own claims about forwarding are dropped; the front states them itself. */
const FORWARDING = new Set(['forwarded', 'x-forwarded-for', 'x-forwarded-proto', 'x-forwarded-host', 'x-forwarded-port', 'x-real-ip']);

export function createProxy(options: ProxyOptions) {
  const agent = new http.Agent({ keepAlive: true, maxFreeSockets: 64 });
  const connectTimeoutMs = options.connectTimeoutMs ?? 2_000;
  const idleTimeoutMs = options.idleTimeoutMs ?? 30_000;

  function proxy(req: http.IncomingMessage, res: http.ServerResponse, retried = false): void {
    const upstream = options.upstream();
    if (!upstream) return fail(res);
    const outgoing = http.request({
      host: upstream.host,
      port: upstream.port,
      method: req.method,
      path: req.url,
      headers: forwardHeaders(req, options.trusted),
      agent,
      timeout: idleTimeoutMs,
    });
    let answered = false;
    outgoing.on('socket', (socket) => {
      if (!socket.connecting) return;
      const timer = setTimeout(() => outgoing.destroy(new Error('connect timeout')), connectTimeoutMs);
      socket.once('connect', () => clearTimeout(timer));
      socket.once('close', () => clearTimeout(timer));
    });
    outgoing.on('timeout', () => outgoing.destroy(new Error('sidecar timeout')));
    outgoing.on('response', (incoming) => {
      answered = true;
      res.writeHead(incoming.statusCode ?? ERROR_STATUS.internal_error, responseHeaders(incoming.rawHeaders));
      incoming.pipe(res);
      // The sidecar died after its headers: the client must see a broken response, not a short one.
      incoming.on('close', () => {
        if (!incoming.complete) res.destroy();
      });
    });
    outgoing.on('error', (error: NodeJS.ErrnoException) => {
      // After the answer (e.g. an early 413 while the upload goes on), the incoming side decides.
      if (answered) return;
      // A kept-alive socket the sidecar closed just as it was reused: safe to repeat a bodiless request.
      if (!retried && outgoing.reusedSocket && error.code === 'ECONNRESET' && !hasBody(req)) {
        return proxy(req, res, true);
      }
      options.onError?.(`proxy ${req.method} ${(req.url ?? '').split('?')[0]}: ${error.message}`);
      fail(res);
    });
    res.on('close', () => {
      // The client went away: stop the sidecar's work for it too.
      if (!res.writableFinished) outgoing.destroy();
    });
    if (!retried) {
      res.on('finish', () => {
        // Answered before the upload ended: discard the rest instead of stalling the connection.
        if (!req.complete) {
          req.unpipe();
          req.resume();
        }
      });
    }
    if (hasBody(req)) req.pipe(outgoing);
    else outgoing.end();
  }
  return { proxy, close: () => agent.destroy() };
}

/** RFC 9112 §6.3: a request has content only when it says so with Content-Length or Transfer-Encoding. */
function hasBody(req: http.IncomingMessage): boolean {
  const length = req.headers['content-length'];
  return req.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}

function forwardHeaders(req: http.IncomingMessage, trusted: Trusted): string[] {
  const raw = req.rawHeaders;
  const connectionTokens = new Set((req.headers.connection ?? '').toLowerCase().split(',').map((t) => t.trim()));
  const out: string[] = [];
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i].toLowerCase();
    if (HOP_BY_HOP.has(name) || FORWARDING.has(name) || connectionTokens.has(name)) continue;
    out.push(raw[i], raw[i + 1]);
  }
  const peer = req.socket.remoteAddress ?? '';
  const forwardedFor = req.headers['x-forwarded-for'];
  const client = clientAddress(peer, Array.isArray(forwardedFor) ? forwardedFor.join(',') : forwardedFor, trusted);
  const viaTrusted = trusted(peer);
  const claimed = (name: string) => (viaTrusted ? lastValue(req.headers[name]) : undefined);
  out.push('X-Forwarded-For', client);
  out.push('X-Forwarded-Proto', claimed('x-forwarded-proto') ?? 'http');
  const host = claimed('x-forwarded-host') ?? req.headers.host;
  if (host) out.push('X-Forwarded-Host', host);
  return out;
}

function lastValue(value: string | string[] | undefined): string | undefined {
  const joined = Array.isArray(value) ? value.join(',') : value;
  const last = joined?.split(',').pop()?.trim();
  return last || undefined;
}

function responseHeaders(raw: string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < raw.length; i += 2) {
    if (!HOP_BY_HOP.has(raw[i].toLowerCase())) out.push(raw[i], raw[i + 1]);
  }
  return out;
}

const INTERNAL_ERROR = JSON.stringify({ error: 'internal_error', message: ERROR_MESSAGES.internal_error });

/** Part 7: an unexpected failure is `500 {error: internal_error, message}`, with X-API-Version (part 8). */
function fail(res: http.ServerResponse): void {
  if (res.headersSent) return void res.destroy();
  res.writeHead(ERROR_STATUS.internal_error, [
    'Content-Type', 'application/json',
    'Content-Length', String(Buffer.byteLength(INTERNAL_ERROR)),
    'Cache-Control', 'no-store',
    'X-API-Version', API_VERSION,
    'X-Content-Type-Options', 'nosniff',
  ]);
  res.end(INTERNAL_ERROR);
}
