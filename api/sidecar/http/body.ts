/**
 * A request body: its media type, its bytes read up to a limit (contract part 8: 64 KB), its text.
 * A body past the limit is refused without buffering it; its rest is read and discarded up to
 * another `limit` bytes so the connection stays in step, and past that left unread with
 * `Connection: close` (an unread body must never become the next request's start). On node:http the
 * body is read from the IncomingMessage itself, not srvx's web stream (docs/performance.md).
 */
import { Readable } from 'node:stream';
import type { ReadableStream as NodeReadableStream } from 'node:stream/web';
import type { ServerRequest } from 'srvx';
import { ApiError } from './errors.ts';

export async function readLimitedBody(request: Request, limit: number): Promise<Uint8Array> {
  const declared = request.headers.get('content-length');
  if (declared !== null && Number(declared) > limit) throw new ApiError('payload_too_large');
  const node = (request as ServerRequest).runtime?.node?.req;
  if (node && !node.readableDidRead && request.method !== 'GET' && request.method !== 'HEAD') return readStream(node, limit);
  if (!request.body) return new Uint8Array(0);
  return readStream(Readable.fromWeb(request.body as NodeReadableStream), limit);
}

/** The bytes, or the ApiError; a hang-up rejects. */
function readStream(req: Readable, limit: number): Promise<Uint8Array> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let total = 0;
    /** Bytes read when the body passed the limit; from then on the rest is only counted. */
    let refusedAt: number | undefined;
    const finish = (settle: () => void) => {
      req.off('data', onData).off('end', onEnd).off('error', onError).off('close', onClose);
      settle();
    };
    const onData = (chunk: Buffer) => {
      total += chunk.byteLength;
      if (refusedAt === undefined && total <= limit) return void chunks.push(chunk);
      refusedAt ??= total;
      // Past another `limit` bytes the rest stays unread: the answer closes the connection.
      if (total - refusedAt > limit) {
        req.pause();
        finish(() => reject(new ApiError('payload_too_large', { connection: 'close' })));
      }
    };
    const onEnd = () => finish(() => (refusedAt === undefined ? resolve(Buffer.concat(chunks, total)) : reject(new ApiError('payload_too_large'))));
    const onError = (error: Error) => finish(() => reject(error));
    const onClose = () => finish(() => reject(new Error('the client closed the connection while sending the body')));
    req.on('data', onData).on('end', onEnd).on('error', onError).on('close', onClose);
  });
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

/** RFC 9110 §8.3.1: media type = type "/" subtype *( OWS ";" OWS parameter ), case-insensitive. */
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/** The lower-cased `type/subtype` of a Content-Type value, parameters dropped; undefined if malformed. */
export function mediaTypeOf(header: string | null): string | undefined {
  if (!header) return undefined;
  const essence = header.split(';', 1)[0].trim().toLowerCase();
  const [type, subtype, extra] = essence.split('/');
  if (extra !== undefined || !type || !subtype || !TOKEN.test(type) || !TOKEN.test(subtype)) return undefined;
  return essence;
}
