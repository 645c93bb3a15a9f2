/**
 * The compressed forms of a static file: brotli and gzip at their best settings, kept only when
 * they save bytes. Best-quality brotli is slow (a noticeable start-up cost for a whole site), so the
 * build makes them once and writes them beside each file (`index.html.br`, `index.html.gz`, the
 * names nginx's `gzip_static` and `brotli_static` read); the front takes them from there at start,
 * after checking that each one still unpacks to its file, and compresses only what has none.
 */
import { readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import { contentTypeOf, isCompressible } from './media-types.ts';

export type Compressed = { br?: Buffer; gzip?: Buffer };

/** Below this size a compressed body saves less than its headers cost. */
const MIN_COMPRESS_BYTES = 256;

/** The file-name suffix of each stored coding. */
export const SUFFIX = { br: '.br', gzip: '.gz' } as const;

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

/** The build's last step: writes the codings of every compressible file under `root`. */
export async function writeCodings(root: string): Promise<void> {
  const entries = await readdir(root, { recursive: true, withFileTypes: true });
  const files = entries.filter((e) => e.isFile() && !codingOfName(e.name)).map((e) => path.join(e.parentPath, e.name));
  await Promise.all(
    files.map(async (file) => {
      const type = contentTypeOf(`/${path.relative(root, file).split(path.sep).join('/')}`);
      const body = await readFile(file);
      if (!type || !worthCompressing(body, type)) return;
      const codings = await compress(body);
      for (const coding of ['br', 'gzip'] as const) {
        if (codings[coding]) await writeFile(file + SUFFIX[coding], codings[coding]);
      }
    }),
  );
}

/** The coding a file's name says it holds (`X.br`, `X.gz`), if any. */
export function codingOfName(name: string): keyof Compressed | undefined {
  return name.endsWith(SUFFIX.br) ? 'br' : name.endsWith(SUFFIX.gzip) ? 'gzip' : undefined;
}
