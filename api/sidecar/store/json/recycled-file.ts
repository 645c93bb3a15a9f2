/**
 * Durable replacement of the waitlist file with durable-file.ts's steps, except that the temporary
 * file is the generation the previous rename replaced (kept by a hard link), overwritten in place:
 * allocating and freeing a whole file per commit sets the sign-up p99 at the envelope
 * (docs/performance.md). A reader that merely opened the target would see its inode overwritten
 * two commits later, so readSnapshot() reads through its own hard link, and the writer never
 * recycles an inode that has another link.
 */
import { randomUUID } from 'node:crypto';
import { constants } from 'node:fs';
import { link, open, readdir, readFile, rename, unlink, type FileHandle } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { fillTempFile, PRIVATE_FILE_MODE, syncDirectory, tempPathOf } from '../durable-file.ts';
import { isRunning } from '../lock.ts';

/** Names the replaced generation for the moment between its replacement and its becoming the temp file. */
export function sparePathOf(path: string): string {
  return join(dirname(path), `.${basename(path)}.prev`);
}

const snapshotPrefix = (path: string) => `.${basename(path)}.read-`;

export async function replaceRecycling(path: string, chunks: readonly Uint8Array[]): Promise<void> {
  const temp = tempPathOf(path);
  await fillTempFile(await openRecycled(temp), temp, chunks);
  const spare = sparePathOf(path);
  const kept = await keepLink(path, spare);
  await rename(temp, path);
  await syncDirectory(dirname(path));
  // Not fsynced: after a crash the leftover is removed at start (removeLeftovers) either way.
  if (kept) await rename(spare, temp);
}

/** Removes the kept generation, so no copy older than the file stays on disk (after an erasure, at close); never while a write is in flight. */
export async function discardRecycled(path: string): Promise<void> {
  await unlink(tempPathOf(path)).catch(() => {});
}

/** Removes what a cut-short write or reader left behind (temp file, spare link, dead readers' links); for the lock's holder, before its first write. */
export async function removeLeftovers(path: string): Promise<void> {
  await unlink(tempPathOf(path)).catch(() => {});
  await unlink(sparePathOf(path)).catch(() => {});
  const prefix = snapshotPrefix(path);
  for (const name of await readdir(dirname(path)).catch(() => [])) {
    if (!name.startsWith(prefix)) continue;
    const pid = Number.parseInt(name.slice(prefix.length), 10);
    if (!isRunning(pid)) await unlink(join(dirname(path), name)).catch(() => {});
  }
}

/**
 * The file's text as one whole commit, read through a private hard link (see above); undefined
 * when there is no file. Where no link can be made (a file system without hard links, where the
 * writer cannot keep generations either), reads the file itself.
 */
export async function readSnapshot(path: string): Promise<string | undefined> {
  const own = join(dirname(path), `${snapshotPrefix(path)}${process.pid}-${randomUUID()}`);
  try {
    await link(path, own);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    return await readFile(path, 'utf8').catch((e: NodeJS.ErrnoException) => {
      if (e.code === 'ENOENT') return undefined;
      throw e;
    });
  }
  try {
    return await readFile(own, 'utf8');
  } finally {
    await unlink(own).catch(() => {});
  }
}

async function openRecycled(temp: string): Promise<FileHandle> {
  const file = await open(temp, constants.O_WRONLY | constants.O_CREAT, PRIVATE_FILE_MODE);
  if ((await file.stat()).nlink <= 1) return file;
  // A reader holds this generation through its snapshot link: leave it to them.
  await file.close();
  await unlink(temp);
  return await open(temp, 'w', PRIVATE_FILE_MODE);
}

/** Hard-links the current file to `spare`; false when there is no file yet or no link can be made. */
async function keepLink(path: string, spare: string): Promise<boolean> {
  try {
    await link(path, spare);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') return false;
  }
  await unlink(spare);
  return await link(path, spare).then(() => true, () => false);
}
