/**
 * The data-directory lock tells a dead or zombie holder from a live one, so a
 * restart right after a SIGKILL succeeds even while the killed sidecar is not yet reaped.
 * Linux only where /proc is read (zombies and pid start times are Linux notions).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, existsSync, openSync, readFileSync } from 'node:fs';
import { mkdtemp, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { acquireLock, dataDirLockPath, LockHeldError } from '../../api/sidecar/store/lock.ts';
import { ROOT } from './support/process.ts';

const linux = existsSync('/proc/self/stat');
let dir: string;
const children: ChildProcess[] = [];
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'lock-holder-'));
});
afterEach(async () => {
  for (const child of children.splice(0)) {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  }
  await rm(dir, { recursive: true, force: true });
});

/** The one-letter state of a process from /proc/PID/stat, or undefined when it is gone. */
function procState(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
  } catch {
    return undefined;
  }
}

/**
 * Blocks the event loop until `done` holds. Deliberately synchronous: Node reaps its children on
 * the event loop, so while this runs a killed child of this process stays a zombie.
 */
function blockUntil(done: () => boolean, what: string, ms = 20_000): void {
  const deadline = Date.now() + ms;
  const nap = new Int32Array(new SharedArrayBuffer(4));
  while (!done()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    Atomics.wait(nap, 0, 0, 5);
  }
}

function sleeper(): ChildProcess {
  const child = spawn('sleep', ['60'], { stdio: 'ignore' });
  children.push(child);
  return child;
}

describe.runIf(linux)('data-directory lock holders', () => {
  it('lock: a zombie holder (killed, not yet reaped) is taken over', async () => {
    // `sh` prints the pid of a short-lived child, then becomes `sleep`, which never reaps it.
    const parent = spawn('sh', ['-c', 'sleep 0.2 & echo $!; exec sleep 60'], { stdio: ['ignore', 'pipe', 'ignore'] });
    children.push(parent);
    const zombie = Number(await new Promise<string>((done) => parent.stdout!.once('data', (chunk) => done(String(chunk)))));
    blockUntil(() => procState(zombie) === 'Z', 'the zombie');
    expect(() => process.kill(zombie, 0)).not.toThrow(); // what the old check believed: "running"
    const path = dataDirLockPath(dir);
    await writeFile(path, `${zombie}\n`);
    const lock = await acquireLock(path, 'The data directory');
    expect(readFileSync(path, 'utf8').trim()).toBe(String(process.pid));
    await lock.release();
  });

  it('lock: a live holder is refused, with its pid named', async () => {
    const holder = sleeper();
    const path = dataDirLockPath(dir);
    await writeFile(path, `${holder.pid}\n`);
    const error = await acquireLock(path, 'The data directory').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LockHeldError);
    expect((error as LockHeldError).owner).toBe(holder.pid);
  });

  it('lock: a pid written long before its current process started (a reused pid) is taken over', async () => {
    const stranger = sleeper();
    const path = dataDirLockPath(dir);
    await writeFile(path, `${stranger.pid}\n`);
    const hourAgo = new Date(Date.now() - 3_600_000);
    await utimes(path, hourAgo, hourAgo);
    const lock = await acquireLock(path, 'The data directory');
    await lock.release();
  });

  it('lock: kill -9 then start at once, 3 rounds: every restart takes the lock while the killed one is a zombie', { timeout: 60_000 }, async () => {
    let current = startSidecar(0);
    blockUntil(() => current.listening() || current.failed(), 'the first sidecar');
    expect(current.failed(), current.stderr()).toBe(false);
    // The blocked event loop keeps each killed sidecar a zombie while the next starts, so every round
    // meets the case; after the first, the lock it takes over was written by a restart.
    for (let round = 1; round <= 3; round++) {
      const killed = current.child;
      killed.kill('SIGKILL');
      blockUntil(() => procState(killed.pid!) === 'Z', 'the killed sidecar to become a zombie');
      current = startSidecar(round);
      blockUntil(() => current.listening() || current.failed(), `restart ${round}`);
      expect(procState(killed.pid!), 'the killed sidecar was still unreaped when the restart took the lock').toBe('Z');
      expect(current.failed(), `restart ${round}: ${current.stderr()}`).toBe(false);
    }
  });
});

/** A real sidecar whose output goes to files, so it can be watched without the event loop. */
function startSidecar(n: number) {
  const out = join(dir, `out-${n}.log`);
  const err = join(dir, `err-${n}.log`);
  const [outFd, errFd] = [openSync(out, 'w'), openSync(err, 'w')];
  const child = spawn(process.execPath, ['api/sidecar/main.ts'], {
    cwd: ROOT,
    env: { ...process.env, BASE_URL: 'https://waitlist.example', SIDECAR_HOST: '127.0.0.1', SIDECAR_PORT: '0', LOG_REQUESTS: 'false', DATA_DIR: join(dir, 'data') },
    stdio: ['ignore', outFd, errFd],
  });
  closeSync(outFd);
  closeSync(errFd);
  children.push(child);
  return {
    child,
    listening: () => readFileSync(out, 'utf8').includes('listening on'),
    // An exited child of a blocked event loop is a zombie too.
    failed: () => procState(child.pid!) === 'Z' || procState(child.pid!) === undefined,
    stderr: () => readFileSync(err, 'utf8'),
  };
}
