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

export class Exchange implements Dispatcher.DispatchHandler {
  private controller: Dispatcher.DispatchController | undefined;
  private answered = false;
  onDone: (() => void) | undefined;
  private readonly attempt: Attempt;
  private readonly retry: (() => void) | undefined;
  private readonly neverReached: (error: Error) => void;

  constructor(attempt: Attempt, retry: (() => void) | undefined, neverReached: (error: Error) => void) {
    this.attempt = attempt;
    this.retry = retry;
    this.neverReached = neverReached;
  }

  onRequestStart(controller: Dispatcher.DispatchController): void {
    this.controller = controller;
  }

  onResponseStart(controller: Dispatcher.DispatchController, statusCode: number, headers: http.IncomingHttpHeaders): void {
    const { res, extra } = this.attempt;
    // The front refused the connection meanwhile (its parser gave up on the client's bytes).
    if (res.headersSent) return controller.abort(new Error('answered by the front'));
    this.answered = true;
    res.writeHead(statusCode, [...responseHeaders(headers), ...extra]);
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
    const { res } = this.attempt;
    // The sidecar died after its headers: the client must see a broken response, not a short one.
    if (this.answered) return void res.destroy();
    if (res.destroyed || res.headersSent) return;
    if (this.retry && CONNECTION_LOST.has(error.code ?? '')) return this.retry();
    if (NEVER_REACHED.has(error.code ?? '')) return this.neverReached(error);
    fail(this.attempt, error.message);
  }

  /** The client went away: stop the sidecar's work for it too. */
  clientGone(): void {
    if (!this.attempt.res.writableFinished && this.controller && !this.controller.aborted) this.controller.abort(new Error('client went away'));
  }
}

/** Contract part 7: an unexpected failure is `500 {error: internal_error, message}`; `why` is logged. */
export function fail({ req, res, extra, onError }: Attempt, why?: string): void {
  if (why) onError?.(`proxy ${req.method} ${(req.url ?? '').split('?', 1)[0]}: ${why}`);
  if (res.headersSent) return void res.destroy();
  sendOwn(res, FAILED, extra);
}
