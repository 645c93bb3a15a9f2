/**
 * One attempt at one proxied request, as an undici dispatch handler: the sidecar's answer is
 * streamed to the client; a request that never reached a sidecar is handed back to wait for one
 * (proxy.ts); a connection lost before any answer is retried when the request allows it; anything
 * else is the front's 500 (own-answers.ts).
 */
import type http from 'node:http';
import type { Dispatcher } from 'undici';
import { responseHeaders } from './forward-headers.ts';
import { FAILED, sendOwn } from './own-answers.ts';

export interface Attempt {
  req: http.IncomingMessage;
  res: http.ServerResponse;
  /** Fields the front adds to the answer (CORS). */
  extra: readonly string[];
  onError: ((message: string) => void) | undefined;
}

/** The connection closed or reset under the request, before any answer: nothing was processed twice. */
const CONNECTION_LOST = new Set(['UND_ERR_SOCKET', 'ECONNRESET', 'EPIPE', 'UND_ERR_CLOSED']);
/**
 * The sidecar never read this request: no connection was made (nothing listened, or its socket
 * file was missing), or the connection was reset before any answer. A kernel resets a connection
 * that is closed with bytes still unread in it; the sidecar reads a request whole before acting
 * on it and never resets a connection itself, so a reset means it had not read (all of) this
 * request. A connection it closed after reading (`other side closed`) is not in this list.
 */
const NEVER_REACHED = new Set(['ECONNREFUSED', 'ENOENT', 'ECONNRESET', 'EPIPE']);

export type Exchange = Dispatcher.DispatchHandler & {
  onResponseError(controller: Dispatcher.DispatchController | undefined, error: Error & { code?: string }): void;
  /** Called once the answer ended or failed (a retry's own connection is closed then). */
  onDone?: () => void;
  /** The client went away: stop the sidecar's work for it too. */
  clientGone(): void;
};

export function createExchange(attempt: Attempt, retry: (() => void) | undefined, neverReached: (error: Error) => void): Exchange {
  const { res, extra } = attempt;
  let controller: Dispatcher.DispatchController | undefined;
  let answered = false;
  const handler: Exchange = {
    onRequestStart(started) {
      controller = started;
    },
    onResponseStart(started, statusCode, headers) {
      // The front refused the connection meanwhile (its parser gave up on the client's bytes).
      if (res.headersSent) return started.abort(new Error('answered by the front'));
      answered = true;
      res.writeHead(statusCode, [...responseHeaders(headers), ...extra]);
    },
    onResponseData(streaming, chunk) {
      if (!res.write(chunk)) {
        streaming.pause();
        res.once('drain', () => streaming.resume());
      }
    },
    onResponseEnd() {
      res.end();
      handler.onDone?.();
    },
    onResponseError(_controller, error: Error & { code?: string }) {
      handler.onDone?.();
      // The sidecar died after its headers: the client must see a broken response, not a short one.
      if (answered) return void res.destroy();
      if (res.destroyed || res.headersSent) return;
      if (retry && CONNECTION_LOST.has(error.code ?? '')) return retry();
      if (NEVER_REACHED.has(error.code ?? '')) return neverReached(error);
      fail(attempt, error.message);
    },
    clientGone() {
      if (!res.writableFinished && controller && !controller.aborted) controller.abort(new Error('client went away'));
    },
  };
  return handler;
}

/** Contract part 7: an unexpected failure is `500 {error: internal_error, message}`; `why` is logged. */
export function fail({ req, res, extra, onError }: Attempt, why?: string): void {
  if (why) onError?.(`proxy ${req.method} ${(req.url ?? '').split('?', 1)[0]}: ${why}`);
  if (res.headersSent) return void res.destroy();
  sendOwn(res, FAILED, extra);
}
