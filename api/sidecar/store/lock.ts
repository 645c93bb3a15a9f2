/**
 * One sidecar per data directory (docs/api.md): a lock file created with O_EXCL holding the
 * owner's pid. A lock whose holder is gone is taken over; a holder being killed is waited for.
 * Two processes racing for the same stale lock within microseconds is the one case this does not
 * cover.
 *
 * `kill(pid, 0)` alone says a zombie (killed, not yet reaped) and a stranger that got the pid later
 * still run, so a restart right after a SIGKILL would be refused. On Linux /proc tells them apart:
 * no /proc/PID, state Z or X, or a start after the lock was written: gone; SIGKILL pending: dying
 * (a system call of it may still finish, so it is waited for). Elsewhere, `kill(pid, 0)` decides.
 */
import { existsSync, readFileSync } from 'node:fs';
import { readFile, stat, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { StartupError } from './errors.ts';
import { PRIVATE_FILE_MODE } from './durable-file.ts';

/** How long a holder with SIGKILL pending may take to die (no event announces another's death). */
const DYING_WAIT_MS = 2_000;
/** USER_HZ, the unit of /proc/PID/stat's starttime: 100 on every Linux architecture Node runs on. */
const TICKS_PER_SECOND = 100;
/**
 * A process counts as younger than the lock only when it started this much later: /proc/stat's
 * btime is whole seconds, and a wall-clock step shifts the computed start; taking over a live
 * holder's lock would be far worse than refusing a stale one.
 */
const START_TIME_SLACK_MS = 60_000;
const SIGKILL_BIT = 1n << 8n;
const hasProc = existsSync('/proc/self/stat');

/** The lock of a data directory: held by the sidecar, and by operator commands that write its data. */
export function dataDirLockPath(dataDir: string): string {
  return join(dataDir, 'sidecar.lock');
}

/** The lock is held by a running process; `owner` is its pid. */
export class LockHeldError extends StartupError {
  readonly owner: number;
  constructor(path: string, what: string, owner: number) {
    super(
      `${what} is already in use by process ${owner} (lock file ${path}). ` +
        'Only one process may use a data directory at a time: stop the other one, or give this one another DATA_DIR.',
    );
    this.name = 'LockHeldError';
    this.owner = owner;
  }
}

/** Locks this process holds: a second acquire from the same process must fail too. */
const held = new Set<string>();

export async function acquireLock(path: string, what: string) {
  if (held.has(path)) throw new LockHeldError(path, what, process.pid);
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      await writeFile(path, `${process.pid}\n`, { flag: 'wx', mode: PRIVATE_FILE_MODE });
      held.add(path);
      return { release: () => releaseLock(path) };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const owner = await lockOwner(path);
    if (owner !== undefined && (await outlives(owner, path))) throw new LockHeldError(path, what, owner);
    await unlink(path).catch(() => {});
  }
  throw new StartupError(`Could not take the lock file ${path}: another process keeps creating it.`);
}

async function releaseLock(path: string): Promise<void> {
  if (!held.delete(path)) return;
  if ((await lockOwner(path)) === process.pid) await unlink(path).catch(() => {});
}

async function lockOwner(path: string): Promise<number | undefined> {
  const pid = Number.parseInt(await readFile(path, 'utf8').catch(() => ''), 10);
  return Number.isSafeInteger(pid) && pid > 0 ? pid : undefined;
}

/** Whether `pid` runs (not a zombie): a leftover's writer. Our own pid in a file we do not hold is an earlier run's (pid 1 in a container). */
export function isRunning(pid: number): boolean {
  return pid !== process.pid && holderState(pid) !== 'gone';
}

/** True when the lock's holder still runs; a dying holder is given DYING_WAIT_MS to finish dying. */
async function outlives(pid: number, path: string): Promise<boolean> {
  if (pid === process.pid) return false;
  const written = await stat(path).then((s) => s.mtimeMs, () => undefined);
  for (const deadline = Date.now() + DYING_WAIT_MS; ; await delay(10)) {
    const state = holderState(pid, written);
    if (state !== 'dying' || Date.now() >= deadline) return state !== 'gone';
  }
}

/** `since`: when the lock was written (ms since the epoch); a process started later cannot hold it. */
function holderState(pid: number, since?: number): 'running' | 'dying' | 'gone' {
  if (!hasProc) {
    try {
      process.kill(pid, 0);
      return 'running';
    } catch (error) {
      // EPERM: the process exists but belongs to someone else.
      return (error as NodeJS.ErrnoException).code === 'EPERM' ? 'running' : 'gone';
    }
  }
  const stat = readProc(`/proc/${pid}/stat`);
  // The command name (field 2) may hold spaces and parentheses: fields resume after the last ')'.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  if (stat === '' || ['Z', 'X', 'x'].includes(fields[0])) return 'gone';
  const boot = /^btime (\d+)$/m.exec(readProc('/proc/stat'));
  const startedAt = boot ? Number(boot[1]) * 1000 + (Number(fields[19]) / TICKS_PER_SECOND) * 1000 : -Infinity;
  if (since !== undefined && startedAt - START_TIME_SLACK_MS > since) return 'gone';
  // SigPnd: signals pending for the thread; ShdPnd: for the whole process. Hex masks, bit n-1 = signal n.
  const pending = [...readProc(`/proc/${pid}/status`).matchAll(/^(?:SigPnd|ShdPnd):\s*([0-9a-f]+)$/gm)];
  return pending.some((m) => (BigInt(`0x${m[1]}`) & SIGKILL_BIT) !== 0n) ? 'dying' : 'running';
}

/** A /proc file's text, or '' when the process is gone. */
function readProc(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return '';
  }
}
