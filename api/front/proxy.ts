/**
 * /api/… and /sandbox/api/… go to the sidecar, the body read whole first and the answer streamed;
 * what one client sends never changes another's answer, and a request that never reached a
 * sidecar waits for the next one (docs/front.md, "The proxy and X-Forwarded-For").
 */
import type http from 'node:http';
import { Client, Pool, type Dispatcher } from 'undici';
import { BODY_LIMIT_BYTES } from '../contract/index.ts';
import type { Trusted } from '../net/client-address.ts';
import { describeAddress, type SidecarAddress } from '../net/sidecar-address.ts';
import { createExchange, fail, type Attempt, type Exchange } from './exchange.ts';
import { forwardHeaders } from './forward-headers.ts';
import { decodeUnreserved } from './target.ts';

export interface ProxyOptions {
  /** Where the sidecar is now; undefined while it is down or (re)starting. */
  upstream: () => SidecarAddress | undefined;
  trusted: Trusted;
  /** No byte either way for this many ms ends the exchange. */
  idleTimeoutMs?: number;
  onError?: (message: string) => void;
  /** How long a request that never reached a sidecar waits for one; 0: a 500 at once. */
  holdMs?: number;
  /**
   * Metrics: `held` when a request starts waiting for a sidecar (once per request, however many
   * tries it takes); `dropped` when one that never reached a sidecar is answered 500.
   */
  holdEvents?: { held(): void; dropped(): void };
}

/** Forwards one request; `extra` are fields the front adds to the answer (CORS). */
export type Proxy = (req: http.IncomingMessage, res: http.ServerResponse, extra?: readonly string[]) => void;

/** One client request on its way to the sidecar, across every try. */
interface Forwarding extends Attempt {
  headers: string[];
  body: Buffer | null;
  /** The try in flight, if any. */
  current?: Exchange;
  /** Set once the request has had to wait: when it is given up. */
  deadline?: number;
  /** Why the last try found no sidecar (logged if the request is given up). */
  why?: string;
  closed: boolean;
}

/** No connection within this time counts as the sidecar being down. */
const CONNECT_TIMEOUT_MS = 2_000;
/** How often held requests look for a sidecar again. */
const HOLD_TICK_MS = 20;
/** At most this many requests wait at once (each holds a connection and up to one body); one more is a 500 at once. */
const MAX_HELD = 1_024;

/** One byte past the contract's largest body: the sidecar sees that a body is too large (413). */
const FORWARDED_BODY_MAX = BODY_LIMIT_BYTES + 1;

const API_PATH = /^\/(sandbox\/)?api(\/|\?|$)/;

/**
 * Paths the sidecar owns; everything else is the site. Compared after decoding unreserved
 * characters (RFC 3986 §6.2.2.2), as the sidecar's router and the site's lookup both read them:
 * `/%61pi/v1/status` goes where `/api/v1/status` goes.
 */
export function isApiPath(target: string): boolean {
  return API_PATH.test(target) || API_PATH.test(decodeUnreserved(target));
}

/** RFC 9110 §9.2.2: only these may be repeated without the client knowing. */
const IDEMPOTENT = new Set(['GET', 'HEAD', 'OPTIONS', 'PUT', 'DELETE', 'TRACE']);

export function createProxy({ upstream: sidecar, trusted, idleTimeoutMs = 30_000, onError, holdMs = 0, holdEvents }: ProxyOptions): { proxy: Proxy; close(): void } {
  const common = { connectTimeout: CONNECT_TIMEOUT_MS, headersTimeout: idleTimeoutMs, bodyTimeout: idleTimeoutMs, pipelining: 1 };
  let pool: Pool | undefined;
  let poolOf = '';

  /** undici's origin and options for one sidecar address: the Unix socket, or TCP. */
  const clientOptions = (upstream: SidecarAddress): [string, Pool.Options] =>
    'socketPath' in upstream ? ['http://localhost', { ...common, socketPath: upstream.socketPath }] : [describeAddress(upstream), common];

  /** One pool per sidecar address: a sidecar restarted elsewhere gets a fresh one. */
  function poolFor(upstream: SidecarAddress): Pool {
    const wanted = describeAddress(upstream);
    if (wanted !== poolOf || !pool) {
      void pool?.close().catch(() => {});
      poolOf = wanted;
      pool = new Pool(...clientOptions(upstream));
    }
    return pool;
  }

  let holding = 0;

  function proxy(req: http.IncomingMessage, res: http.ServerResponse, extra: readonly string[] = []): void {
    const f: Forwarding = { req, res, extra, onError, headers: forwardHeaders(req, trusted), body: null, closed: false };
    res.on('close', () => {
      f.closed = true;
      f.current?.clientGone();
    });
    // RFC 9112 §6.3: a request has content only when it says so with Content-Length or Transfer-Encoding.
    const length = req.headers['content-length'];
    if (req.headers['transfer-encoding'] === undefined && (length === undefined || length === '0')) return send(f, true);
    readBody(req, (body) => {
      f.body = body;
      if (!f.closed) send(f, true);
    });
  }

  /** Starts one try, or holds the request while no sidecar is known. */
  function send(f: Forwarding, mayRetry: boolean, fresh = false): void {
    const { req } = f;
    const upstream = sidecar();
    if (!upstream) return wait(f, mayRetry, undefined);
    const retry = mayRetry && IDEMPOTENT.has(req.method ?? '') ? () => send(f, false, true) : undefined;
    const exchange = createExchange(f, retry, (error) => wait(f, mayRetry, error.message));
    f.current = exchange;
    try {
      // A retry gets a connection of its own: the pool might hand out another stale one.
      const target: Dispatcher = fresh ? new Client(...clientOptions(upstream)) : poolFor(upstream);
      if (fresh) exchange.onDone = () => void target.close().catch(() => {});
      target.dispatch({ method: req.method as Dispatcher.HttpMethod, path: req.url ?? '/', headers: f.headers, body: f.body, reset: fresh }, exchange);
    } catch (error) {
      // undici refuses some requests outright (e.g. a header it cannot send).
      exchange.onResponseError(undefined, error as Error);
    }
  }

  /** The request never reached a sidecar: it waits for one, or gets the 500 when its time is up. */
  function wait(f: Forwarding, mayRetry: boolean, why: string | undefined): void {
    f.current = undefined;
    if (why) f.why = why;
    if (f.closed) return;
    const now = performance.now();
    if (f.deadline === undefined) {
      f.deadline = now + holdMs;
      if (holdMs > 0 && holding < MAX_HELD) holdEvents?.held();
    }
    if (now >= f.deadline || holding >= MAX_HELD) {
      holdEvents?.dropped();
      return fail(f, f.why);
    }
    holding++;
    setTimeout(() => {
      holding--;
      if (!f.closed) send(f, mayRetry);
    }, HOLD_TICK_MS);
  }

  return { proxy, close: () => void pool?.destroy().catch(() => {}) };
}

/**
 * Reads the body up to FORWARDED_BODY_MAX bytes and hands it on as soon as it has all arrived or
 * is known to be too large; past that the rest is read and dropped. A body that never completes
 * is ended by the server's request deadline (server.ts), and nothing is sent.
 */
function readBody(req: http.IncomingMessage, done: (body: Buffer) => void): void {
  let chunks: Buffer[] = [];
  let size = 0;
  let handed = false;
  const hand = () => {
    handed = true;
    const body = Buffer.concat(chunks, Math.min(size, FORWARDED_BODY_MAX));
    chunks = [];
    done(body);
  };
  req.on('data', (chunk: Buffer) => {
    if (handed) return;
    chunks.push(chunk);
    size += chunk.length;
    if (size >= FORWARDED_BODY_MAX) hand();
  });
  req.on('end', () => handed || hand());
}
