/**
 * Durable replacement of a file: write a temporary file in the same directory, fsync it, rename
 * it over the target, fsync the directory (so the rename itself survives a power cut). A reader
 * therefore sees the old file or the new one, never a mix. Files are created with mode 0600.
 */
import { open, rename, unlink } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

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

export type FileHandle = Awaited<ReturnType<typeof open>>;

/**
 * Writes the chunks into the open temporary file, cuts it to their length (a recycled file may be
 * longer), fsyncs and closes it. On failure the temporary file is closed and removed.
 */
export async function fillTempFile(file: FileHandle, temp: string, chunks: readonly Uint8Array[]): Promise<void> {
  try {
    await file.truncate(await writeChunks(file, chunks));
    await file.sync();
  } catch (error) {
    await file.close().catch(() => {});
    await unlink(temp).catch(() => {});
    throw error;
  }
  await file.close();
}

/** Writes the chunks one after the other from offset 0; resolves with the byte count. */
export async function writeChunks(file: FileHandle, chunks: readonly Uint8Array[]): Promise<number> {
  let position = 0;
  // writev writes at most IOV_MAX buffers per call; batch to keep each call well under it.
  for (let i = 0; i < chunks.length; i += 512) {
    const batch = chunks.slice(i, i + 512);
    await writeAll(file, batch, position);
    for (const chunk of batch) position += chunk.byteLength;
  }
  return position;
}

async function writeAll(file: FileHandle, buffers: Uint8Array[], position: number): Promise<void> {
  let pending = buffers;
  let at = position;
  while (pending.length > 0) {
    const { bytesWritten } = await file.writev(pending, at);
    at += bytesWritten;
    // A short write (rare: disk nearly full, signals) leaves a tail to write again.
    let skip = bytesWritten;
    const rest: Uint8Array[] = [];
    for (const buffer of pending) {
      if (skip >= buffer.byteLength) skip -= buffer.byteLength;
      else {
        rest.push(skip > 0 ? buffer.subarray(skip) : buffer);
        skip = 0;
      }
    }
    pending = rest;
  }
}

export async function syncDirectory(dir: string): Promise<void> {
  const handle = await open(dir, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}
