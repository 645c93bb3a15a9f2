/**
 * A request body at the front, both ways of the limit, so one client's upload never stalls another's request:
 * - the sidecar is passed at most BODY_LIMIT_BYTES + 1 bytes, enough to see that a body is too
 *   large (413), never more. It therefore always reads the whole body it is sent, its connection
 *   stays in step, and no sidecar connection is left holding the unread rest of one client's
 *   upload;
 * - an answer that goes out before the client's body has all arrived (any answer: a page, a
 *   refusal, the sidecar's, the front's own) keeps the connection only when the rest is known to
 *   fit the limit (a Content-Length up to BODY_LIMIT_BYTES): that rest is then read and dropped,
 *   and the connection carries the next request. Otherwise (chunked, or declared too large) the
 *   answer says `Connection: close` and the connection is closed in stages (settleBeforeAnswer).
 */
import type http from 'node:http';
import type net from 'node:net';
import { Transform, type TransformCallback } from 'node:stream';
import { BODY_LIMIT_BYTES } from '../contract/index.ts';

/** One byte past the contract's largest body: the sidecar's "too large" without the rest. */
export const FORWARDED_BODY_MAX = BODY_LIMIT_BYTES + 1;

/** True when a declared length is over what is forwarded: the body then goes chunked, cut short. */
export function cutsBody(req: http.IncomingMessage): boolean {
  const declared = req.headers['content-length'];
  return declared !== undefined && Number(declared) > FORWARDED_BODY_MAX;
}

/** A request body on its way to the sidecar, capped, and kept for a resend once it has all passed. */
export interface CappedBody {
  /**
   * What a try sends: the stream while nothing has read it (a try that found no sidecar left it
   * untouched), else the whole body as it passed before; undefined when part of it went out and
   * the rest is still to come (it cannot be sent again).
   */
  forTry(): Transform | Buffer | undefined;
}

/** Pipes the request into a stream that ends after `max` bytes and then lets go of the request. */
export function cappedBody(req: http.IncomingMessage, max = FORWARDED_BODY_MAX): CappedBody {
  let left = max;
  let complete = false;
  // At most `max` bytes: what a resend to a restarted sidecar needs (proxy.ts, hold.ts).
  const passed: Buffer[] = [];
  const cap = new Transform({
    transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback) {
      if (left <= 0) return done();
      const part = chunk.length > left ? chunk.subarray(0, left) : chunk;
      left -= part.length;
      passed.push(part);
      this.push(part);
      if (left === 0) {
        complete = true;
        req.unpipe(cap);
        this.push(null);
      }
      done();
    },
    flush(done: TransformCallback) {
      complete = true;
      done();
    },
  });
  // undici destroys a body stream it stops writing (e.g. after an early answer); the client's
  // request must survive that, so that its rest can be drained.
  req.pipe(cap);
  return {
    forTry: () => (!cap.destroyed && !cap.readableDidRead ? cap : complete ? Buffer.concat(passed) : undefined),
  };
}

/**
 * True when the body's declared length fits what is forwarded (and no Transfer-Encoding comes
 * with it): such a body is read whole before it goes on (readWhole).
 */
export function fitsWhole(req: http.IncomingMessage): boolean {
  const declared = req.headers['content-length'];
  return req.headers['transfer-encoding'] === undefined && declared !== undefined && Number(declared) <= FORWARDED_BODY_MAX;
}

/**
 * Reads a body that fits (fitsWhole) to its end, then hands it on whole, as nginx's
 * `proxy_request_buffering` does by default: the sidecar then gets the head and the body in one
 * write, no sidecar connection waits on a slow client, and no stream is built per request. A
 * sign-up's body is a few hundred bytes; the memory is bounded by FORWARDED_BODY_MAX. A client
 * that never completes its body is ended by the server's request deadline, and nothing is sent.
 */
export function readWhole(req: http.IncomingMessage, done: (body: CappedBody) => void): void {
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.on('end', () => {
    const whole = chunks.length === 1 ? chunks[0] : Buffer.concat(chunks);
    done({ forTry: () => whole });
  });
}

/** The forwarded fields without Content-Length, for a body the cap cuts short. */
export function withoutContentLength(headers: string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < headers.length; i += 2) if (headers[i].toLowerCase() !== 'content-length') out.push(headers[i], headers[i + 1]);
  return out;
}

/** RFC 9112 §6.3: a request has content only when it says so with Content-Length or Transfer-Encoding. */
export function hasBody(req: http.IncomingMessage): boolean {
  const length = req.headers['content-length'];
  return req.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}

/**
 * Answered before the upload ended: read and discard the rest. It is bounded: either its length
 * was declared within the limit, or the connection is closing (settleBeforeAnswer).
 */
export function drainRest(req: http.IncomingMessage): void {
  if (req.complete) return;
  req.unpipe();
  req.resume();
}

/** True when the unread rest of the body is known to fit the limit (or there is none). */
export function restFits(req: http.IncomingMessage): boolean {
  if (req.complete || !hasBody(req)) return true;
  const declared = req.headers['content-length'];
  return req.headers['transfer-encoding'] === undefined && declared !== undefined && Number(declared) <= BODY_LIMIT_BYTES;
}

/**
 * Makes whichever answer this request gets decide, as its head goes out, whether the connection
 * can be kept (restFits) or must close (closeAfterAnswer). Called for every request with a body.
 */
export function settleBeforeAnswer(req: http.IncomingMessage, res: http.ServerResponse): void {
  const writeHead = res.writeHead;
  res.writeHead = function (this: http.ServerResponse, ...args: unknown[]) {
    res.writeHead = writeHead;
    if (!restFits(req)) closeAfterAnswer(req, res);
    return (writeHead as (...a: unknown[]) => http.ServerResponse).apply(this, args);
  } as typeof res.writeHead;
}

/**
 * The answer says `Connection: close`, and the connection is then closed in stages (RFC 9112
 * §9.6): our side first, while what the client still sends is read and dropped (up to
 * BODY_LIMIT_BYTES, for at most LINGER_MS), so that it reads its answer instead of a reset; then
 * for good. node:http alone would close at once after the answer (destroySoon), and a client
 * still sending would get a reset that can swallow the answer.
 */
export function closeAfterAnswer(req: http.IncomingMessage, res: http.ServerResponse): void {
  res.shouldKeepAlive = false;
  if (req.complete) return;
  const socket = req.socket;
  socket.destroySoon = () => lingeringClose(socket);
}

function lingeringClose(socket: net.Socket): void {
  if (socket.destroyed) return;
  socket.end();
  let left = BODY_LIMIT_BYTES;
  socket.on('data', (chunk: Buffer) => {
    left -= chunk.length;
    if (left < 0) socket.destroy();
  });
  // The client's own close (its FIN, answered by ours) usually comes first.
  const timer = setTimeout(() => socket.destroy(), LINGER_MS).unref();
  socket.once('close', () => clearTimeout(timer));
}

/** How long the rest of an upload is still read after a closing answer, before the close. */
const LINGER_MS = 2_000;
