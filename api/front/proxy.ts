/**
 * /api/… and /sandbox/api/… go to the sidecar: same method, path and query, bodies streamed both
 * ways (never buffered whole), over kept-alive connections (a Unix domain socket by default). When
 * the sidecar is down, slow to connect or dies mid-request, the client gets the contract's JSON 500
 * instead of a hang.
 *
 * One client's request never changes another's answer (issue 8):
 * - the sidecar is sent at most BODY_LIMIT_BYTES + 1 bytes of a body (body-cap.ts), so it always
 *   reads to the end what it is sent and its connections stay in step; an answer that comes while
 *   undici is still sending makes undici drop that connection, and a `Connection: close` from the
 *   sidecar is honoured: no half-sent body stays on a pooled connection to become the start of
 *   the next client's request;
 * - an idempotent bodiless request that meets a connection the sidecar closed or reset is repeated
 *   once, on a connection of its own;
 * - the rest of an upload the sidecar answered early is discarded up to BODY_LIMIT_BYTES, then the
 *   client's connection is closed.
 *
 * The client side is undici's Pool driven through `dispatch()` with a handler object: measured
 * on the status probe, it costs the front about a third less CPU per request than node:http's
 * ClientRequest (scripts/bench/probe.ts, docs/front.md "What the proxy costs").
 */
import type http from 'node:http';
import { Client, Pool, type Dispatcher } from 'undici';
import { BODY_LIMIT_BYTES } from '../contract/index.ts';
import type { Trusted } from '../net/client-address.ts';
import { describeAddress, type SidecarAddress } from '../net/sidecar-address.ts';
import { cappedBody, cutsBody } from './body-cap.ts';
import { forwardHeaders, requestClient, responseHeaders } from './forward-headers.ts';
import { ownApiError } from './own-answer.ts';
import type { RateLimitMirror } from './rate-limit-mirror.ts';

export type Upstream = SidecarAddress;

export interface ProxyOptions {
  /** Where the sidecar is now; undefined while it is down or (re)starting. */
  upstream: () => Upstream | undefined;
  trusted: Trusted;
  /** RateLimit-* fields for the front's own answers; without it they carry none (tests only). */
  mirror?: RateLimitMirror;
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
/** The connection closed or reset under the request, before any answer: nothing was processed twice. */
const CONNECTION_LOST = new Set(['UND_ERR_SOCKET', 'ECONNRESET', 'EPIPE', 'UND_ERR_CLOSED']);

interface Attempt {
  req: http.IncomingMessage;
  res: http.ServerResponse;
  /** Rate-limit mirror key of this request. */
  key: string | undefined;
  onError: ((message: string) => void) | undefined;
  mirror: RateLimitMirror | undefined;
}

export function createProxy(options: ProxyOptions) {
  const connectTimeoutMs = options.connectTimeoutMs ?? 2_000;
  const idleTimeoutMs = options.idleTimeoutMs ?? 30_000;
  const { mirror } = options;
  let pool: Pool | undefined;
  let poolOf = '';

  /** Client options for one sidecar address: the Unix socket, or TCP. */
  function clientOptions(upstream: Upstream): [string, Pool.Options] {
    // No pipelining: one request at a time per connection, so a slow answer never holds up another.
    const common = { connectTimeout: connectTimeoutMs, headersTimeout: idleTimeoutMs, bodyTimeout: idleTimeoutMs, pipelining: 1 };
    return 'socketPath' in upstream ? ['http://localhost', { ...common, socketPath: upstream.socketPath }] : [describeAddress(upstream), common];
  }

  /** One pool per sidecar address: a sidecar restarted elsewhere gets a fresh one. */
  function poolFor(upstream: Upstream): Pool {
    const wanted = describeAddress(upstream);
    if (wanted !== poolOf || !pool) {
      void pool?.close().catch(() => {});
      poolOf = wanted;
      const [origin, opts] = clientOptions(upstream);
      pool = new Pool(origin, opts);
    }
    return pool;
  }

  function proxy(req: http.IncomingMessage, res: http.ServerResponse): void {
    const withBody = hasBody(req);
    const client = requestClient(req, options.trusted);
    const attempt: Attempt = { req, res, key: mirror?.key(client, req.url ?? '/', req.method ?? 'GET'), onError: options.onError, mirror };
    let headers = forwardHeaders(req, options.trusted, client);
    // A declared length the cap cuts short no longer holds: undici sends the cut body chunked.
    if (withBody && cutsBody(req)) headers = withoutContentLength(headers);
    const first = send(attempt, headers, withBody, true);
    res.on('close', () => first?.clientGone());
    if (withBody) res.on('finish', () => drainRest(req));
  }

  /** Starts one attempt; undefined when there is nothing in flight (answered 500 at once). */
  function send(attempt: Attempt, headers: string[], withBody: boolean, mayRetry: boolean, fresh = false): Exchange | undefined {
    const { req } = attempt;
    const upstream = options.upstream();
    if (!upstream) return void fail(attempt);
    const body = withBody ? cappedBody(req) : null;
    const retry = mayRetry && !withBody && IDEMPOTENT.has(req.method ?? '') ? () => send(attempt, headers, false, false, true) : undefined;
    const exchange = new Exchange(attempt, retry);
    try {
      // A retry gets a connection of its own: the pool might hand out another stale one.
      const target: Dispatcher = fresh ? new Client(...clientOptions(upstream)) : poolFor(upstream);
      if (fresh) exchange.onDone = () => void target.close().catch(() => {});
      const method = req.method as Dispatcher.HttpMethod;
      target.dispatch({ method, path: req.url ?? '/', headers, body, reset: fresh }, exchange);
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
  onDone: (() => void) | undefined;
  private readonly attempt: Attempt;
  private readonly retry: (() => Exchange | undefined) | undefined;

  constructor(attempt: Attempt, retry: (() => Exchange | undefined) | undefined) {
    this.attempt = attempt;
    this.retry = retry;
  }

  onRequestStart(controller: Dispatcher.DispatchController): void {
    this.controller = controller;
  }

  onResponseStart(controller: Dispatcher.DispatchController, statusCode: number, headers: http.IncomingHttpHeaders): void {
    this.answered = true;
    const { key, mirror, res } = this.attempt;
    if (key && mirror) mirror.note(key, headers['ratelimit-remaining'], headers['ratelimit-reset']);
    res.writeHead(statusCode, responseHeaders(headers));
  }

  onResponseData(controller: Dispatcher.DispatchController, chunk: Buffer): void {
    const { res } = this.attempt;
    if (!res.write(chunk)) {
      controller.pause();
      res.once('drain', () => controller.resume());
    }
  }

  onResponseEnd(): void {
    this.attempt.res.end();
    this.onDone?.();
  }

  onResponseError(_controller: Dispatcher.DispatchController | undefined, error: Error & { code?: string }): void {
    this.onDone?.();
    const { req, res, onError } = this.attempt;
    // The sidecar died after its headers: the client must see a broken response, not a short one.
    if (this.answered) return void res.destroy();
    if (res.destroyed) return;
    if (this.retry && CONNECTION_LOST.has(error.code ?? '')) return void (this.next = this.retry());
    onError?.(`proxy ${req.method} ${(req.url ?? '').split('?', 1)[0]}: ${error.message}`);
    fail(this.attempt);
  }

  /** The client went away: stop the sidecar's work for it too. */
  clientGone(): void {
    if (this.next) return this.next.clientGone();
    if (!this.attempt.res.writableFinished && this.controller && !this.controller.aborted) this.controller.abort(new Error('client went away'));
  }
}

function withoutContentLength(headers: string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < headers.length; i += 2) if (headers[i].toLowerCase() !== 'content-length') out.push(headers[i], headers[i + 1]);
  return out;
}

/** RFC 9112 §6.3: a request has content only when it says so with Content-Length or Transfer-Encoding. */
function hasBody(req: http.IncomingMessage): boolean {
  const length = req.headers['content-length'];
  return req.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}

/**
 * Answered before the upload ended: read and discard the rest, so that the connection can carry
 * the client's next request, but no more than the body limit. Beyond that the connection is
 * closed in stages (RFC 9112 §9.6): our side first, while the rest is still read and dropped for
 * LINGER_MS, so that the client reads its answer instead of a reset; then for good.
 */
function drainRest(req: http.IncomingMessage): void {
  if (req.complete) return;
  req.unpipe();
  let left = BODY_LIMIT_BYTES;
  const socket = req.socket;
  req.on('data', (chunk: Buffer) => {
    left -= chunk.length;
    if (left >= 0 || socket.writableEnded) return;
    socket.end();
    setTimeout(() => socket.destroy(), LINGER_MS).unref();
  });
  req.resume();
}

/** How long the rest of an over-long upload is still read after the answer, before the close. */
const LINGER_MS = 2_000;

/** Part 7: an unexpected failure is `500 {error: internal_error, message}`, with the API headers. */
function fail({ res, key, mirror }: Attempt): void {
  if (res.headersSent) return void res.destroy();
  const answer = ownApiError('internal_error', key && mirror ? mirror.fields(key) : []);
  res.writeHead(answer.status, answer.headers);
  res.end(answer.body);
}
