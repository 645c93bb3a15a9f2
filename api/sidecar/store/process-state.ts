/**
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

type HolderState = 'running' | 'dying' | 'gone';

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
export function holderState(pid: number, since?: number): HolderState {
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
