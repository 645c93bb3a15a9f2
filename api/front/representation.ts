/**
 * One representation of a resource, ready to send: its body in every worthwhile content-coding,
 * a strong ETag per coding, and the finished header arrays for 200 and 304.
 */
import { createHash } from 'node:crypto';
import { SECURITY_HEADERS, type Described } from './headers.ts';
import { compress, unpacksTo, worthCompressing, type Compressed } from './codings.ts';
import type { Coding } from './negotiate.ts';

export interface Encoded {
  body: Buffer;
  etag: string;
  ok: string[];
  notModified: string[];
}

export interface Representation {
  meta: Described;
  /** Codings on offer; identity is always one of them. */
  codings: readonly Coding[];
  encoded: Readonly<Partial<Record<Coding, Encoded>>> & { identity: Encoded };
}

/**
 * `extra`: headers of this representation beyond the shared ones (x-markdown-tokens,
 * Content-Signal); sent with 200 and 404, not with 304 (RFC 9110 §15.4.5 lists what a 304 repeats).
 * `stored`: the codings the build wrote beside the file (codings.ts), used when they unpack to it.
 */
export async function represent(body: Buffer, meta: Described, extra: readonly string[] = [], stored: Compressed = {}): Promise<Representation> {
  const hash = createHash('sha256').update(body).digest('base64url').slice(0, 27);
  const bodies: [Coding, Buffer][] = [['identity', body]];
  if (worthCompressing(body, meta.contentType)) {
    const valid = (coding: keyof Compressed) => stored[coding] && stored[coding].length < body.length && unpacksTo(body, coding, stored[coding]);
    const codings = valid('br') && valid('gzip') ? stored : await compress(body);
    if (codings.br) bodies.push(['br', codings.br]);
    if (codings.gzip) bodies.push(['gzip', codings.gzip]);
  }
  // Vary names Accept-Encoding whenever codings were on offer.
  const vary = [...meta.vary, ...(bodies.length > 1 ? ['Accept-Encoding'] : [])];
  const encoded: Partial<Record<Coding, Encoded>> = {};
  for (const [coding, data] of bodies) {
    // RFC 9110 §8.8.3: a strong validator differs between content-codings of the same data.
    const etag = coding === 'identity' ? `"${hash}"` : `"${hash}-${coding === 'gzip' ? 'gz' : 'br'}"`;
    // RFC 9110 §15.4.5: a 304 carries ETag, Vary and Cache-Control as the 200 would, and no
    // representation metadata (type, length, coding).
    const notModified = [
      ...(meta.validators ? ['ETag', etag] : []),
      'Cache-Control', meta.cacheControl,
      ...(vary.length ? ['Vary', vary.join(', ')] : []),
      ...(meta.links.length ? ['Link', meta.links.join(', ')] : []),
      ...SECURITY_HEADERS,
    ];
    const ok = [
      'Content-Type', meta.contentType,
      'Content-Length', String(data.length),
      ...(coding === 'identity' ? [] : ['Content-Encoding', coding]),
      ...notModified,
      ...extra,
    ];
    encoded[coding] = { body: data, etag, ok, notModified };
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
