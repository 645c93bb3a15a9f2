/**
 * The compressed forms of a static file: brotli and gzip at their best settings, kept only when
 * they save bytes. Best-quality brotli is slow, so the build writes them beside each file (the
 * names nginx's `gzip_static` and `brotli_static` read) and the front reads them back at start
 * (docs/front.md, "Negotiation"). Both read the site the same way (readSite).
 */
import { readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import { contentTypeOf, isCompressible } from './media-types.ts';

export type Compressed = { br?: Buffer; gzip?: Buffer };

/** Below this size a compressed body saves less than its headers cost. */
const MIN_COMPRESS_BYTES = 256;

const SUFFIX = { br: '.br', gzip: '.gz' } as const;

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

export function worthCompressing(body: Buffer, contentType: string): boolean {
  return isCompressible(contentType) && body.length >= MIN_COMPRESS_BYTES;
}

/** Both codings of a body, each only when it is smaller than the body. */
export async function compress(body: Buffer): Promise<Compressed> {
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
  return { br: br.length < body.length ? br : undefined, gzip: gz.length < body.length ? gz : undefined };
}

/** A stored coding is used only when it unpacks to exactly the file (a file edited after the build is not). */
export function unpacksTo(body: Buffer, coding: keyof Compressed, compressed: Buffer): boolean {
  try {
    const unpacked = coding === 'br' ? zlib.brotliDecompressSync(compressed) : zlib.gunzipSync(compressed);
    return unpacked.equals(body);
  } catch {
    return false;
  }
}

/** The build's last step: writes the codings of every compressible file of the site under `root`. */
export async function writeCodings(root: string): Promise<void> {
  const { files } = await readSite(root);
  await Promise.all(
    [...files].map(async ([url, body]) => {
      const type = contentTypeOf(url);
      if (!type || !worthCompressing(body, type)) return;
      const codings = await compress(body);
      for (const coding of ['br', 'gzip'] as const) {
        if (codings[coding]) await writeFile(path.join(root, url) + SUFFIX[coding], codings[coding]);
      }
    }),
  );
}

/**
 * Every public regular file under root, keyed by its URL path; symbolic links are skipped, not
 * followed. The build's compressed copies (`X.br`, `X.gz` beside a file X) are codings of X, not
 * resources of their own; a `.gz` or `.br` file with no original beside it is an ordinary file.
 */
export async function readSite(root: string): Promise<{ files: Map<string, Buffer>; stored: Map<string, Compressed> }> {
  let entries;
  try {
    entries = await readdir(root, { recursive: true, withFileTypes: true });
  } catch (error) {
    throw new Error(`cannot read the site at ${root}: ${(error as Error).message}. Build it first (npm run build).`);
  }
  const tree = new Map<string, Buffer>();
  await Promise.all(
    entries
      .filter((entry) => entry.isFile())
      .map((entry) => path.relative(root, path.join(entry.parentPath, entry.name)).split(path.sep).join('/'))
      // Dotfiles are never public, except the RFC 8615 well-known tree.
      .filter((rel) => !rel.split('/').some((segment, i) => segment.startsWith('.') && !(i === 0 && segment === '.well-known')))
      .map(async (rel) => void tree.set(`/${rel}`, await readFile(path.join(root, rel)))),
  );
  const files = new Map<string, Buffer>();
  const stored = new Map<string, Compressed>();
  for (const [name, body] of tree) {
    const coding = name.endsWith(SUFFIX.br) ? 'br' : name.endsWith(SUFFIX.gzip) ? 'gzip' : undefined;
    const original = coding && name.slice(0, -SUFFIX[coding].length);
    if (original && tree.has(original)) stored.set(original, { ...stored.get(original), [coding]: body });
    else files.set(name, body);
  }
  return { files, stored };
}
