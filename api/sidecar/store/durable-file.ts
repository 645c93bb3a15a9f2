/**
 * Durable replacement of a file: write a temporary file in the same directory, fsync it, rename
 * it over the target, fsync the directory (so the rename itself survives a power cut). A reader
 * therefore sees the old file or the new one, never a mix. Files are created with mode 0600.
 */
import { open, readFile, rename, unlink } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

export const PRIVATE_FILE_MODE = 0o600;

export function tempPathOf(path: string): string {
  return join(dirname(path), `.${basename(path)}.tmp`);
}

/** `data` may come in chunks (the waitlist file: store/json/record-table.ts), written one after the other. */
export async function replaceFileDurably(path: string, data: string | Uint8Array | readonly Uint8Array[]): Promise<void> {
  const temp = tempPathOf(path);
  const file = await open(temp, 'w', PRIVATE_FILE_MODE);
  try {
    await file.writeFile(data);
    await file.sync();
  } catch (error) {
    await file.close().catch(() => {});
    await unlink(temp).catch(() => {});
    throw error;
  }
  await file.close();
  await rename(temp, path);
  await syncDirectory(dirname(path));
}

/**
 * The whole text of a file written by replaceFileDurably, also while its writer runs (every write
 * is a rename, so a read sees one whole generation); undefined when there is no file.
 */
export async function readCommitted(path: string): Promise<string | undefined> {
  try {
    return await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
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
