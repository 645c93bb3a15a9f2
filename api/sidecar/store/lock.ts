/**
 * One sidecar per data directory: an exclusive lock file holding the owner's pid, created with
 * O_EXCL. A lock whose holder is gone (crashed, killed, a zombie not yet reaped, or its pid now
 * another process's: process-state.ts) is stale and taken over; a holder that is being killed is
 * waited for. Two processes racing for the same stale lock within microseconds is the one case
 * this does not cover (docs/api.md).
 */
import { setTimeout as delay } from 'node:timers/promises';
import { open, readFile, stat, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { StartupError } from './errors.ts';
import { PRIVATE_FILE_MODE } from './durable-file.ts';
import { holderState } from './process-state.ts';

/** How long a holder with SIGKILL pending may take to die (no event announces another's death). */
const DYING_WAIT_MS = 2_000;
const DYING_POLL_MS = 10;

/** The lock of a data directory: held by the sidecar, and by operator commands that write its data. */
export function dataDirLockPath(dataDir: string): string {
  return join(dataDir, 'sidecar.lock');
}

export interface Lock {
  readonly path: string;
  release(): Promise<void>;
}

/** Locks this process holds: a second acquire from the same process must fail too. */
const held = new Set<string>();

export async function acquireLock(path: string, what: string): Promise<Lock> {
  if (held.has(path)) throw inUse(path, what, process.pid);
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const handle = await open(path, 'wx', PRIVATE_FILE_MODE);
      await handle.writeFile(`${process.pid}\n`);
      await handle.sync();
      await handle.close();
      held.add(path);
      return { path, release: () => releaseLock(path) };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const owner = await lockOwner(path);
    if (owner !== undefined && (await outlives(owner, path))) throw inUse(path, what, owner);
    await unlink(path).catch(() => {});
  }
  throw new StartupError(`Could not take the lock file ${path}: another process keeps creating it.`);
}

/** The lock is held by a running process; `owner` is its pid. */
export class LockHeldError extends StartupError {
  readonly owner: number;
  constructor(message: string, owner: number) {
    super(message);
    this.name = 'LockHeldError';
    this.owner = owner;
  }
}

function inUse(path: string, what: string, owner: number): LockHeldError {
  return new LockHeldError(
    `${what} is already in use by process ${owner} (lock file ${path}). ` +
      'Only one process may use a data directory at a time: stop the other one, or give this one another DATA_DIR.',
    owner,
  );
}

async function lockOwner(path: string): Promise<number | undefined> {
  const text = await readFile(path, 'utf8').catch(() => '');
  const pid = Number.parseInt(text.trim(), 10);
  return Number.isSafeInteger(pid) && pid > 0 ? pid : undefined;
}

/** Whether `pid` runs (not a zombie): the owner of a leftover file named after its writer. */
export function isRunning(pid: number): boolean {
  // Our own pid in a lock we do not hold is a leftover of an earlier run that had the same pid
  // (pid 1 in a container, for instance).
  if (pid === process.pid) return false;
  return holderState(pid) !== 'gone';
}

/** True when the lock's holder still runs; a dying holder is given DYING_WAIT_MS to finish dying. */
async function outlives(pid: number, path: string): Promise<boolean> {
  if (pid === process.pid) return false;
  const written = await stat(path).then((s) => s.mtimeMs, () => undefined);
  for (const deadline = Date.now() + DYING_WAIT_MS; ; await delay(DYING_POLL_MS)) {
    const state = holderState(pid, written);
    if (state !== 'dying' || Date.now() >= deadline) return state !== 'gone';
  }
}

async function releaseLock(path: string): Promise<void> {
  if (!held.delete(path)) return;
  if ((await lockOwner(path)) === process.pid) await unlink(path).catch(() => {});
}
