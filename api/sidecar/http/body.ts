/**
 * Reads a request body up to a byte limit, counting while reading (contract part 8: 64 KB).
 * A declared Content-Length above the limit is refused before reading anything; a chunked body
 * is refused as soon as it passes the limit, so a 10 MB body is never buffered.
 *
 * A refused body's rest is read and discarded up to another `limit` bytes, so the connection stays
 * in step for the next request; a body longer still is left unread and the answer says
 * `Connection: close` (an unread body must never become the next request's start).
 */
import { ApiError } from './errors.ts';

export async function readLimitedBody(request: Request, limit: number): Promise<Uint8Array> {
  const declared = request.headers.get('content-length');
  if (declared !== null && Number(declared) > limit) throw new ApiError('payload_too_large');
  if (!request.body) return new Uint8Array(0);
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > limit) {
      const ended = await discard(reader, limit);
      // Not cancel(): that destroys the socket, possibly before the 413 is written.
      reader.releaseLock();
      throw new ApiError('payload_too_large', ended ? {} : { connection: 'close' });
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks, total);
}

/** Reads and drops up to `budget` bytes; true when the body ended within them. */
async function discard(reader: ReadableStreamDefaultReader<Uint8Array>, budget: number): Promise<boolean> {
  for (let left = budget; left >= 0; ) {
    const { done, value } = await reader.read();
    if (done) return true;
    left -= value.byteLength;
  }
  return false;
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** Strict UTF-8 decoding (RFC 8259 §8.1 for JSON; form bodies are percent-encoded ASCII). */
export function decodeUtf8(bytes: Uint8Array): string | undefined {
  try {
    return utf8.decode(bytes);
  } catch {
    return undefined;
  }
}
