/**
 * The product's one line per request (docs/operator.md, "Logs"), written by the front because it
 * sees every request, pages and API alike; its strings go through the shared redaction (api/log/redact.ts).
 */
import { randomUUID } from 'node:crypto';
import type http from 'node:http';
import type { Logger } from '../log/logger.ts';
import { redact, redactPath } from '../log/redact.ts';
import { acceptableRequestId, REQUEST_ID_HEADER } from '../log/request-id.ts';
import type { Trusted } from '../net/client-address.ts';

/** The text form of a request line (tests and terminals). */
export function requestLine(method: string, target: string, status: number | string, ms: number): string {
  return `${redact(method)} ${redactPath(target)} ${status} ${ms.toFixed(1)}ms`;
}

/** The id rides on the request object itself: cheaper per request than a WeakMap beside it. */
const ID = Symbol('request id');
type WithId = http.IncomingMessage & { [ID]?: string };

/** The id the front gave this request (forward-headers.ts passes it to the sidecar). */
export function requestIdOf(req: http.IncomingMessage): string | undefined {
  return (req as WithId)[ID];
}

export interface Finished {
  method: string;
  target: string;
  isApi: boolean;
  status: number;
  ms: number;
}

export interface TrackerOptions {
  /** Whose X-Request-Id is believed (TRUST_PROXY); everyone else's is replaced. */
  trusted: Trusted;
  /** Writes the request line; omit to write none (LOG_REQUESTS=false). */
  logger?: Logger;
  /** Called once per finished request (metrics). */
  onFinish?: (request: Finished) => void;
  /** Milliseconds, for durations. */
  now?: () => number;
}

export type Tracker = (req: http.IncomingMessage, res: http.ServerResponse, isApi: boolean) => void;

/** Gives each request its id and, when it ends, writes its line and reports it. */
export function requestTracker({ trusted, logger, onFinish, now = () => performance.now() }: TrackerOptions): Tracker {
  return (req, res, isApi) => {
    const started = now();
    const header = req.headers[REQUEST_ID_HEADER];
    // A trusted proxy's id is kept (whose it is matters only when there is one); else a new one.
    const id = (header !== undefined && trusted(req.socket.remoteAddress) ? acceptableRequestId(header) : undefined) ?? randomUUID();
    (req as WithId)[ID] = id;
    if (!logger && !onFinish) return;
    // 'close' comes once per response, also when the client went away first.
    res.on('close', () => {
      const ms = now() - started;
      const target = req.url ?? '/';
      const method = req.method ?? '-';
      onFinish?.({ method, target, isApi, status: res.statusCode, ms });
      if (!logger) return;
      const fields: Record<string, string | number | boolean> = { reqId: id, method, path: redactPath(target), status: res.statusCode, ms: Math.round(ms * 10) / 10 };
      // The client or the connection went away before the whole answer was sent.
      if (!res.writableFinished) fields.aborted = true;
      logger.info(fields, 'request');
    });
  };
}
