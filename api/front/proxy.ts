/**
 * /api/… and /sandbox/api/… go to the sidecar: same method, path and query, over kept-alive
 * connections (a Unix domain socket by default). A body whose declared length fits the limit is
 * read whole and sent with the head in one write (body-cap.ts, readWhole); any other body, and
 * every answer, is streamed (never buffered whole). When
 * the sidecar is down, slow to connect or dies mid-request, the client gets the contract's JSON 500
 * instead of a hang.
 *
 * One client's request never changes another's answer:
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
 * A sidecar restart costs no request it never saw: a request that found no sidecar (none known,
 * connection refused, socket missing) waits for the next one for up to SIDECAR_HOLD_MS (hold.ts)
 * and is then forwarded, with its body, even a POST; only a request the sidecar received and did
 * not answer is a 500.
 *
 * The client side is undici's Pool driven through `dispatch()` with a handler object: measured
 * on the status probe, it costs the front about a third less CPU per request than node:http's
 * ClientRequest (scripts/bench/probe.ts, docs/front.md "What the proxy costs").
 */
import type http from 'node:http';
import { Client, Pool, type Dispatcher } from 'undici';
import type { Trusted } from '../net/client-address.ts';
import { describeAddress, type SidecarAddress } from '../net/sidecar-address.ts';
import { cappedBody, cutsBody, drainRest, fitsWhole, hasBody, readWhole, withoutContentLength, type CappedBody } from './body-cap.ts';
import { Exchange, fail, type Attempt } from './exchange.ts';
import { forwardHeaders, requestClient } from './forward-headers.ts';
import { holdRoom, type HoldEvents, type Waiting } from './hold.ts';
import type { RateLimitMirror } from './rate-limit-mirror.ts';
import { decodeUnreserved } from './request-path.ts';
import { forwardedMethod } from './unlisted-method.ts';

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
  /** How long a request that never reached a sidecar waits for one (hold.ts); 0: a 500 at once. */
  holdMs?: number;
  /** Counts held and dropped requests (metrics). */
  holdEvents?: Partial<HoldEvents>;
}

/** One client request on its way to the sidecar, across every try. */
interface Forwarding {
  attempt: Attempt;
  headers: string[];
  /** The capped body, created once for every try (payload()). */
  body: CappedBody | null;
  /** The try in flight, if any. */
  current?: Exchange;
  /** Set once the request has had to wait. */
  waiting?: Waiting;
  /** Why the last try found no sidecar (logged if the request is given up). */
  why?: string;
  closed: boolean;
}

const API_PATH = /^\/(sandbox\/)?api(\/|\?|$)/;

/**
 * Paths the sidecar owns; everything else is the site. Compared after decoding unreserved
 * characters (request-path.ts), as the sidecar's router and the site's lookup both do: the front
 * sends `/%61pi/v1/status` where the sidecar would answer it, not to the site.
 */
export function isApiPath(target: string): boolean {
  return API_PATH.test(target) || API_PATH.test(decodeUnreserved(target));
}

/** RFC 9110 §9.2.2: only these may be repeated without the client knowing. */
const IDEMPOTENT = new Set(['GET', 'HEAD', 'OPTIONS', 'PUT', 'DELETE', 'TRACE']);

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

  const room = holdRoom(options.holdMs ?? 0, options.holdEvents);

  function proxy(req: http.IncomingMessage, res: http.ServerResponse): void {
    const withBody = hasBody(req);
    const client = requestClient(req, options.trusted);
    const attempt: Attempt = { req, res, key: mirror?.key(client, req.url ?? '/', req.method ?? 'GET'), onError: options.onError, mirror };
    let headers = forwardHeaders(req, options.trusted, client);
    // A declared length the cap cuts short no longer holds: undici sends the cut body chunked.
    if (withBody && cutsBody(req)) headers = withoutContentLength(headers);
    const whole = withBody && fitsWhole(req);
    const forwarding: Forwarding = { attempt, headers, body: withBody && !whole ? cappedBody(req) : null, closed: false };
    if (!whole) send(forwarding, true);
    else
      readWhole(req, (body) => {
        forwarding.body = body;
        if (!forwarding.closed) send(forwarding, true);
      });
    res.on('close', () => {
      forwarding.closed = true;
      forwarding.current?.clientGone();
    });
    if (withBody) res.on('finish', () => drainRest(req));
  }

  /** Starts one try, or holds the request while no sidecar is known. */
  function send(f: Forwarding, mayRetry: boolean, fresh = false): void {
    const { req } = f.attempt;
    const upstream = options.upstream();
    if (!upstream) return wait(f, mayRetry, undefined);
    const body = f.body ? f.body.forTry() : null;
    // Part of the body went to a sidecar that never read it, and the rest is still on its way: lost.
    if (body === undefined) return void room.giveUp(f.waiting ?? waiting(f));
    const retry = mayRetry && !f.body && IDEMPOTENT.has(req.method ?? '') ? () => send(f, false, true) : undefined;
    const exchange = new Exchange(f.attempt, retry, (error) => wait(f, mayRetry, error.message));
    f.current = exchange;
    try {
      // A retry gets a connection of its own: the pool might hand out another stale one.
      const target: Dispatcher = fresh ? new Client(...clientOptions(upstream)) : poolFor(upstream);
      if (fresh) exchange.onDone = () => void target.close().catch(() => {});
      // A method the sidecar's parser would refuse goes as a stand-in (unlisted-method.ts).
      const method = forwardedMethod(req.method) as Dispatcher.HttpMethod;
      target.dispatch({ method, path: req.url ?? '/', headers: f.headers, body, reset: fresh }, exchange);
    } catch (error) {
      // undici refuses some requests outright (e.g. a header it cannot send).
      exchange.onResponseError(undefined, error as Error);
    }
  }

  /** The request never reached a sidecar: it waits for one (hold.ts), or gets the 500. */
  function wait(f: Forwarding, mayRetry: boolean, why: string | undefined): void {
    f.current = undefined;
    if (why) f.why = why;
    f.waiting ??= waiting(f);
    f.waiting.retry = () => send(f, mayRetry);
    room.hold(f.waiting);
  }

  function waiting(f: Forwarding): Waiting {
    return {
      deadline: room.deadlineFromNow(),
      counted: false,
      gone: () => f.closed,
      retry: () => {},
      giveUp: () => {
        const { req, onError } = f.attempt;
        if (f.why) onError?.(`proxy ${req.method} ${(req.url ?? '').split('?', 1)[0]}: ${f.why}`);
        fail(f.attempt);
      },
    };
  }
  return { proxy, close: () => void pool?.destroy().catch(() => {}) };
}

