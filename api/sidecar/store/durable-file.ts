/**
 * Durable replacement of a file: write a temporary file in the same directory, fsync it, rename
 * it over the target, fsync the directory (so the rename itself survives a power cut). A reader
 * therefore sees the old file or the new one, never a mix. Files are created with mode 0600.
 * Also the reading and writing of the small operator-owned JSON files (clients, keys).
 */
import { open, readFile, rename, unlink, type FileHandle } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { z } from 'zod';
import { StartupError } from './errors.ts';

export const PRIVATE_FILE_MODE = 0o600;

export function tempPathOf(path: string): string {
  return join(dirname(path), `.${basename(path)}.tmp`);
}

export async function replaceFileDurably(path: string, chunks: readonly Uint8Array[]): Promise<void> {
  const temp = tempPathOf(path);
  await fillTempFile(await open(temp, 'w', PRIVATE_FILE_MODE), temp, chunks);
  await rename(temp, path);
  await syncDirectory(dirname(path));
}

/**
 * A small operator-owned JSON file `{format, version: 1, ...fields}`, pretty-printed and replaced
 * durably. Reading it: absent, undefined; not JSON or not of the format, a StartupError with the
 * advice `corrupt` gives for the path, the file left alone.
 */
export function formatFile<S extends z.ZodRawShape>(format: string, fields: S, corrupt: (path: string) => string) {
  const schema = z.object({ format: z.literal(format), version: z.literal(1), ...fields }).strict();
  return {
    async read(path: string): Promise<z.infer<typeof schema> | undefined> {
      const text = await readFile(path, 'utf8').catch((error: NodeJS.ErrnoException) => {
        if (error.code === 'ENOENT') return undefined;
        throw error;
      });
      if (text === undefined) return undefined;
      try {
        return schema.parse(JSON.parse(text));
      } catch {
        throw new StartupError(corrupt(path));
      }
    },
    write(path: string, value: object): Promise<void> {
      return replaceFileDurably(path, [Buffer.from(`${JSON.stringify({ format, version: 1, ...value }, null, 2)}\n`)]);
    },
  };
}

/** Fills the open temporary file (cut to the chunks' length: a recycled one may be longer), fsyncs and closes it; on failure removes it. */
export async function fillTempFile(file: FileHandle, temp: string, chunks: readonly Uint8Array[]): Promise<void> {
  try {
    const total = chunks.reduce((sum, chunk) => sum + chunk.byteLength, 0);
    // libuv writes every buffer of a writev (in IOV_MAX groups, resuming after short writes) and stops
    // at the first error, reporting only the bytes written before it: writing the rest again then
    // fails with that error (ENOSPC, EIO).
    let written = (await file.writev(chunks, 0)).bytesWritten;
    if (written < total) {
      const all = Buffer.concat(chunks);
      while (written < total) written += (await file.write(all, written, total - written, written)).bytesWritten;
    }
    await file.truncate(total);
    await file.sync();
  } catch (error) {
    await file.close().catch(() => {});
    await unlink(temp).catch(() => {});
    throw error;
  }
  await file.close();
}

export async function syncDirectory(dir: string): Promise<void> {
  const handle = await open(dir, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}
