/**
 * A request body: its media type, its bytes read up to a limit (contract part 8: 64 KB), its text,
 * its form fields.
 * A body past the limit is refused without buffering it; its rest is read and discarded up to
 * another `limit` bytes so the connection stays in step, and past that left unread with
 * `Connection: close` (an unread body must never become the next request's start). On node:http the
 * body is read from the IncomingMessage itself, not srvx's web stream (docs/performance.md).
 */
import { Readable } from 'node:stream';
import type { ReadableStream as NodeReadableStream } from 'node:stream/web';
import type { ServerRequest } from 'srvx';
import { ApiError } from './respond.ts';

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

/**
 * The fields of a form body, parsed strictly: URLSearchParams is lenient (bad escapes turn into
 * U+FFFD, repeated names are kept); the contract wants both reported: bytes that are not UTF-8, a
 * bad escape or a repeated name is `400 invalid_request` (RFC 6749 §3.2 forbids repeated token parameters).
 */
export function parseForm(bytes: Uint8Array): Map<string, string> {
  const text = decodeUtf8(bytes);
  if (text === undefined) throw new ApiError('invalid_request');
  const fields = new Map<string, string>();
  for (const pair of text.split('&')) {
    if (pair === '') continue;
    const eq = pair.indexOf('=');
    const name = decodeComponent(eq === -1 ? pair : pair.slice(0, eq));
    const value = decodeComponent(eq === -1 ? '' : pair.slice(eq + 1));
    if (name === undefined || value === undefined || fields.has(name)) throw new ApiError('invalid_request');
    fields.set(name, value);
  }
  return fields;
}

/** WHATWG urlencoded: `+` is a space, then percent-decoding of UTF-8; a bad escape is an error. */
export function decodeComponent(text: string): string | undefined {
  try {
    return decodeURIComponent(text.replaceAll('+', ' '));
  } catch {
    return undefined;
  }
}
