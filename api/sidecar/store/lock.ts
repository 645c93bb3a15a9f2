/**
 * One sidecar per data directory: an exclusive lock file holding the owner's pid, created with
 * O_EXCL. A lock whose holder is gone (crashed, killed, a zombie not yet reaped, or its pid now
 * another process's) is stale and taken over; a holder that is being killed is waited for. Two
 * processes racing for the same stale lock within microseconds is the one case this does not
 * cover (docs/api.md).
 *
 * Is the process that wrote a lock still holding it? `kill(pid, 0)` alone says yes for a zombie
 * (killed, not yet reaped by its parent) and for a stranger that got the pid later, so a restart
 * right after a SIGKILL would be refused. On Linux /proc tells them apart:
 *   - no /proc/PID, or state Z (zombie) / X (dead): gone;
 *   - started after the lock was written: the pid was reused, the holder is gone;
 *   - SIGKILL pending: dying; it never runs user code again, but a system call of it may still
 *     finish, so the caller waits for it to become a zombie before taking over.
 * Elsewhere (no /proc) the answer falls back to `kill(pid, 0)`.
 */
import { existsSync, readFileSync } from 'node:fs';
import { setTimeout as delay } from 'node:timers/promises';
import { open, readFile, stat, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { StartupError } from './errors.ts';
import { PRIVATE_FILE_MODE } from './durable-file.ts';

/** How long a holder with SIGKILL pending may take to die (no event announces another's death). */
const DYING_WAIT_MS = 2_000;
const DYING_POLL_MS = 10;

/** The lock of a data directory: held by the sidecar, and by operator commands that write its data. */
export function dataDirLockPath(dataDir: string): string {
  return join(dataDir, 'sidecar.lock');
}

export interface Lock {
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
      return { release: () => releaseLock(path) };
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

/** USER_HZ, the unit of /proc/PID/stat's starttime: 100 on every Linux architecture Node runs on. */
const TICKS_PER_SECOND = 100;
/**
 * A process counts as younger than the lock only when it started this much later: /proc/stat's
 * btime is whole seconds, and a wall-clock step after the lock was written shifts the computed
 * start; taking over a live holder's lock would be far worse than refusing a stale one.
 */
const START_TIME_SLACK_MS = 60_000;
const SIGKILL_BIT = 1n << 8n;

const hasProc = existsSync('/proc/self/stat');

/** `since`: when the lock was written (ms since the epoch); a process started later cannot hold it. */
function holderState(pid: number, since?: number): 'running' | 'dying' | 'gone' {
  if (!hasProc) return signalZero(pid) ? 'running' : 'gone';
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return 'gone';
  }
  // The command name (field 2) may hold spaces and parentheses: fields resume after the last ')'.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const state = fields[0];
  if (state === 'Z' || state === 'X' || state === 'x') return 'gone';
  if (since !== undefined && startedAt(Number(fields[19])) - START_TIME_SLACK_MS > since) return 'gone';
  return killPending(pid) ? 'dying' : 'running';
}

function signalZero(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function startedAt(ticks: number): number {
  const boot = /^btime (\d+)$/m.exec(readFileSync('/proc/stat', 'utf8'));
  return boot ? Number(boot[1]) * 1000 + (ticks / TICKS_PER_SECOND) * 1000 : Number.NEGATIVE_INFINITY;
}

function killPending(pid: number): boolean {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    // SigPnd: signals pending for the thread; ShdPnd: for the whole process. Hex masks, bit n-1 = signal n.
    return [...status.matchAll(/^(?:SigPnd|ShdPnd):\s*([0-9a-f]+)$/gm)].some((m) => (BigInt(`0x${m[1]}`) & SIGKILL_BIT) !== 0n);
  } catch {
    return false;
  }
}
