/**
 * What the front passes on of a request body: at most BODY_LIMIT_BYTES + 1 bytes, enough for the
 * sidecar to see that a body is too large (413), never more. The sidecar therefore always reads
 * the whole body it is sent, its connection stays in step, and no sidecar connection is ever
 * left holding the unread rest of one client's upload (issue 8, item 1). The client's own rest
 * is the proxy's business (drainRest in proxy.ts).
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
