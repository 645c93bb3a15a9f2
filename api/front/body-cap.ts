/**
 * A request body at the front, both ways of the limit (issue 8, item 1):
 * - the sidecar is passed at most BODY_LIMIT_BYTES + 1 bytes, enough to see that a body is too
 *   large (413), never more. It therefore always reads the whole body it is sent, its connection
 *   stays in step, and no sidecar connection is left holding the unread rest of one client's
 *   upload;
 * - the client's own rest, after an early answer, is read and dropped up to BODY_LIMIT_BYTES,
 *   then its connection is closed (drainRest).
 */
import type http from 'node:http';
import { Transform, type TransformCallback } from 'node:stream';
import { BODY_LIMIT_BYTES } from '../contract/index.ts';

/** One byte past the contract's largest body: the sidecar's "too large" without the rest. */
export const FORWARDED_BODY_MAX = BODY_LIMIT_BYTES + 1;

/** True when a declared length is over what is forwarded: the body then goes chunked, cut short. */
export function cutsBody(req: http.IncomingMessage): boolean {
  const declared = req.headers['content-length'];
  return declared !== undefined && Number(declared) > FORWARDED_BODY_MAX;
}

/** Pipes the request into a stream that ends after `max` bytes and then lets go of the request. */
export function cappedBody(req: http.IncomingMessage, max = FORWARDED_BODY_MAX): Transform {
  let left = max;
  const cap = new Transform({
    transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback) {
      if (left <= 0) return done();
      const part = chunk.length > left ? chunk.subarray(0, left) : chunk;
      left -= part.length;
      this.push(part);
      if (left === 0) {
        req.unpipe(cap);
        this.push(null);
      }
      done();
    },
  });
  // undici destroys a body stream it stops writing (e.g. after an early answer); the client's
  // request must survive that, so that its rest can be drained.
  return req.pipe(cap);
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
 * Answered before the upload ended: read and discard the rest, so that the connection can carry
 * the client's next request, but no more than the body limit. Beyond that the connection is
 * closed in stages (RFC 9112 §9.6): our side first, while the rest is still read and dropped for
 * LINGER_MS, so that the client reads its answer instead of a reset; then for good.
 */
export function drainRest(req: http.IncomingMessage): void {
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
