/**
 * /api/… and /sandbox/api/… go to the sidecar: same method, path and query, bodies streamed both
 * ways (never buffered whole), over kept-alive connections. When the sidecar is down, slow to
 * connect or dies mid-request, the client gets the contract's JSON 500 instead of a hang.
 *
 * The client side is undici's Pool driven through `dispatch()` with a handler object: measured
 * on the status probe, it costs the front about a third less CPU per request than node:http's
 * ClientRequest (scripts/bench/probe.ts, docs/front.md "What the proxy costs").
 */
import type http from 'node:http';
import { PassThrough } from 'node:stream';
import { Pool, type Dispatcher } from 'undici';
import { API_VERSION, ERROR_MESSAGES, ERROR_STATUS } from '../contract/index.ts';
import { forwardHeaders, responseHeaders } from './forward-headers.ts';
import type { Trusted } from '../net/client-address.ts';

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

/** RFC 9110 §9.2.2: only these may be repeated without the client knowing. */
const IDEMPOTENT = new Set(['GET', 'HEAD', 'OPTIONS', 'PUT', 'DELETE', 'TRACE']);

export function createProxy(options: ProxyOptions) {
  const connectTimeoutMs = options.connectTimeoutMs ?? 2_000;
  const idleTimeoutMs = options.idleTimeoutMs ?? 30_000;
  let pool: Pool | undefined;
  let origin = '';

  /** One pool per sidecar address: a sidecar restarted on another port gets a fresh one. */
  function poolFor(upstream: Upstream): Pool {
    const wanted = `http://${upstream.host.includes(':') ? `[${upstream.host}]` : upstream.host}:${upstream.port}`;
    if (wanted !== origin || !pool) {
      void pool?.close().catch(() => {});
      origin = wanted;
      // No pipelining: one request at a time per connection, so a slow answer never holds up another.
      pool = new Pool(wanted, { connectTimeout: connectTimeoutMs, headersTimeout: idleTimeoutMs, bodyTimeout: idleTimeoutMs, pipelining: 1 });
    }
    return pool;
  }

  function proxy(req: http.IncomingMessage, res: http.ServerResponse): void {
    const withBody = hasBody(req);
    const first = send(req, res, withBody, true);
    res.on('close', () => first?.clientGone());
    if (withBody) res.on('finish', () => drainRest(req));
  }

  /** Starts one attempt; undefined when there is nothing in flight (answered 500 at once). */
  function send(req: http.IncomingMessage, res: http.ServerResponse, withBody: boolean, mayRetry: boolean): Exchange | undefined {
    const upstream = options.upstream();
    if (!upstream) return void fail(res);
    // undici destroys a body stream it stops writing (e.g. after an early 413); the client's own
    // request must survive that, so that its rest can be drained and the connection kept.
    const body = withBody ? req.pipe(new PassThrough()) : null;
    const retry = mayRetry && !withBody && IDEMPOTENT.has(req.method ?? '') ? () => send(req, res, false, false) : undefined;
    const exchange = new Exchange(req, res, retry, options.onError);
    try {
      const target = poolFor(upstream);
      target.dispatch({ method: req.method as Dispatcher.HttpMethod, path: req.url ?? '/', headers: forwardHeaders(req, options.trusted), body }, exchange);
    } catch (error) {
      // undici refuses some requests outright (e.g. a header it cannot send).
      exchange.onResponseError(undefined, error as Error);
    }
    return exchange;
  }
  return { proxy, close: () => void pool?.destroy().catch(() => {}) };
}

/** One attempt at one proxied request, as an undici dispatch handler. */
class Exchange implements Dispatcher.DispatchHandler {
  private controller: Dispatcher.DispatchController | undefined;
  private answered = false;
  /** The repeat of this exchange, once it was retried. */
  private next: Exchange | undefined;
  private readonly req: http.IncomingMessage;
  private readonly res: http.ServerResponse;
  private readonly retry: (() => Exchange | undefined) | undefined;
  private readonly onError: ((message: string) => void) | undefined;

  constructor(req: http.IncomingMessage, res: http.ServerResponse, retry: (() => Exchange | undefined) | undefined, onError: ((message: string) => void) | undefined) {
    this.req = req;
    this.res = res;
    this.retry = retry;
    this.onError = onError;
  }

  onRequestStart(controller: Dispatcher.DispatchController): void {
    this.controller = controller;
  }

  onResponseStart(controller: Dispatcher.DispatchController, statusCode: number, headers: http.IncomingHttpHeaders): void {
    this.answered = true;
    this.res.writeHead(statusCode, responseHeaders(headers));
  }

  onResponseData(controller: Dispatcher.DispatchController, chunk: Buffer): void {
    if (!this.res.write(chunk)) {
      controller.pause();
      this.res.once('drain', () => controller.resume());
    }
  }

  onResponseEnd(): void {
    this.res.end();
  }

  onResponseError(_controller: Dispatcher.DispatchController | undefined, error: Error & { code?: string }): void {
    // The sidecar died after its headers: the client must see a broken response, not a short one.
    if (this.answered) return void this.res.destroy();
    if (this.res.destroyed) return;
    // A kept-alive connection the sidecar closed just as it was reused: safe to repeat once.
    if (this.retry && error.code === 'UND_ERR_SOCKET') return void (this.next = this.retry());
    this.onError?.(`proxy ${this.req.method} ${(this.req.url ?? '').split('?', 1)[0]}: ${error.message}`);
    fail(this.res);
  }

  /** The client went away: stop the sidecar's work for it too. */
  clientGone(): void {
    if (this.next) return this.next.clientGone();
    if (!this.res.writableFinished && this.controller && !this.controller.aborted) this.controller.abort(new Error('client went away'));
  }
}

/** RFC 9112 §6.3: a request has content only when it says so with Content-Length or Transfer-Encoding. */
function hasBody(req: http.IncomingMessage): boolean {
  const length = req.headers['content-length'];
  return req.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}

/** Answered before the upload ended: discard the rest instead of stalling the connection. */
function drainRest(req: http.IncomingMessage): void {
  if (req.complete) return;
  req.unpipe();
  req.resume();
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
