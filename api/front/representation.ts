/**
 * One representation of a resource, ready to send: its body in every worthwhile content-coding,
 * a strong ETag per coding, and the finished header arrays for 200 and 304.
 */
import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import { okHeaders, validatorHeaders, type Described, type RawHeaders } from './headers.ts';
import { isCompressible } from './media-types.ts';
import type { Coding } from './negotiate.ts';

export interface Encoded {
  body: Buffer;
  etag: string;
  ok: RawHeaders;
  notModified: RawHeaders;
}

export interface Representation {
  meta: Described;
  /** Codings on offer; identity is always one of them. */
  codings: readonly Coding[];
  encoded: Readonly<Partial<Record<Coding, Encoded>>> & { identity: Encoded };
}

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

/** Below this size a compressed body saves less than its headers cost. */
const MIN_COMPRESS_BYTES = 256;

/**
 * `extra`: headers of this representation beyond the shared ones (x-markdown-tokens,
 * Content-Signal); sent with 200 and 404, not with 304 (RFC 9110 §15.4.5 lists what a 304 repeats).
 */
export async function represent(body: Buffer, meta: Described, extra: RawHeaders = []): Promise<Representation> {
  const hash = createHash('sha256').update(body).digest('base64url').slice(0, 27);
  const bodies: [Coding, Buffer][] = [['identity', body]];
  if (isCompressible(meta.contentType) && body.length >= MIN_COMPRESS_BYTES) {
    const [br, gz] = await Promise.all([
      brotli(body, {
        params: {
          [zlib.constants.BROTLI_PARAM_QUALITY]: zlib.constants.BROTLI_MAX_QUALITY,
          [zlib.constants.BROTLI_PARAM_SIZE_HINT]: body.length,
          [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT,
        },
      }),
      gzip(body, { level: zlib.constants.Z_BEST_COMPRESSION }),
    ]);
    // Keep a coding only when it actually saves bytes.
    if (br.length < body.length) bodies.push(['br', br]);
    if (gz.length < body.length) bodies.push(['gzip', gz]);
  }
  const offered = bodies.length > 1;
  const encoded: Partial<Record<Coding, Encoded>> = {};
  for (const [coding, data] of bodies) {
    // RFC 9110 §8.8.3: a strong validator differs between content-codings of the same data.
    const etag = coding === 'identity' ? `"${hash}"` : `"${hash}-${coding === 'gzip' ? 'gz' : 'br'}"`;
    const described = { coding, etag, length: data.length };
    encoded[coding] = {
      body: data,
      etag,
      ok: [...okHeaders(meta, described, offered), ...extra],
      notModified: validatorHeaders(meta, described, offered),
    };
  }
  return { meta, codings: bodies.map(([c]) => c), encoded: encoded as Representation['encoded'] };
}

/** RFC 9110 §13.1.2: If-None-Match uses the weak comparison; `*` matches any current representation. */
export function matchesIfNoneMatch(header: string, etag: string): boolean {
  if (header.trim() === '*') return true;
  for (const candidate of header.split(',')) {
    const tag = candidate.trim();
    if ((tag.startsWith('W/') ? tag.slice(2) : tag) === etag) return true;
  }
  return false;
}
