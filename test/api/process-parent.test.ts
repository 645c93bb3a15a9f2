/**
 * The sidecar does not outlive the parent that forked it with IPC (the npm start supervisor): a
 * tiny parent forks the real `node api/sidecar/main.ts`, the test SIGKILLs that parent, and the
 * orphaned sidecar must stop by itself, gracefully (lock released).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { API_PATHS } from '../../api/contract/index.ts';
import { dataDirLockPath } from '../../api/sidecar/store/lock.ts';
import { send } from '../support/request.ts';
import { ROOT } from './support/process.ts';

/** Forks the sidecar like the supervisor does (IPC, own process group) and prints its pid and URL when ready. */
const PARENT = `
const { fork } = require('node:child_process');
const child = fork(process.argv[1], [], { stdio: ['ignore', 'ignore', 'inherit', 'ipc'], detached: true });
child.on('message', (m) => { if (m.type === 'ready') process.stdout.write(JSON.stringify({ pid: child.pid, url: m.url }) + '\\n'); });
child.on('exit', (code) => process.stdout.write(JSON.stringify({ exited: code }) + '\\n'));
`;

let dir: string;
let parent: ChildProcess | undefined;
let sidecarPid: number | undefined;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'sidecar-parent-'));
});
afterEach(async () => {
  parent?.kill('SIGKILL');
  if (sidecarPid !== undefined && isAlive(sidecarPid)) process.kill(sidecarPid, 'SIGKILL');
  parent = sidecarPid = undefined;
  await rm(dir, { recursive: true, force: true });
});

/** Running, and not a zombie waiting for a reaper (an orphan's new parent may never reap it). */
function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return true;
  }
}

describe('sidecar without its parent', () => {
  it('process: the parent that forked the sidecar with IPC is SIGKILLed -> the sidecar stops by itself, lock released', async () => {
    parent = spawn(process.execPath, ['-e', PARENT, 'api/sidecar/main.ts'], {
      cwd: ROOT,
      env: { PATH: process.env.PATH, BASE_URL: 'https://waitlist.example', DATA_DIR: dir, SIDECAR_LISTEN: 'tcp', SIDECAR_HOST: '127.0.0.1', SIDECAR_PORT: '0', LOG_REQUESTS: 'false' },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const ready = await new Promise<{ pid: number; url: string }>((done, fail) => {
      let out = '';
      parent!.stdout!.on('data', (chunk) => {
        out += chunk;
        const line = out.split('\n')[0];
        if (out.includes('\n')) (line.includes('"pid"') ? done : fail)(JSON.parse(line));
      });
      parent!.on('exit', () => fail(new Error('the parent exited before the sidecar was ready')));
    });
    sidecarPid = ready.pid;
    expect((await send(ready.url, API_PATHS.status)).status).toBe(200);
    expect(isAlive(sidecarPid)).toBe(true);

    parent.kill('SIGKILL');
    for (let waited = 0; waited < 15_000 && isAlive(sidecarPid); waited += 50) await sleep(50);
    expect(isAlive(sidecarPid)).toBe(false);
    // The graceful path ran (not a crash): the lock file is gone.
    await expect(stat(dataDirLockPath(dir))).rejects.toThrow();
  });
});
