/** Starts the real sidecar (`node api/sidecar/main.ts`) as a child process on an ephemeral port. */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { JsonWaitlistStore } from '../../../api/sidecar/store/json/waitlist-store.ts';
import type { WaitlistStore } from '../../../api/sidecar/store/waitlist-store.ts';
import { captureOutput, ROOT, type Finished } from './cli.ts';

export { ROOT, type Finished };

export interface Running {
  child: ChildProcess;
  url: string;
  stdout: () => string;
  stderr: () => string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

function launch(script: string, args: string[], env: Record<string, string>) {
  const child = spawn(process.execPath, [script, ...args], {
    cwd: ROOT,
    // Vitest puts Vite's BASE_URL=/ into process.env; the sidecar needs an origin there.
    // TCP on an ephemeral port (tests talk HTTP to it); SIDECAR_LISTEN: '' in env gives the default Unix socket.
    env: { ...process.env, BASE_URL: 'https://waitlist.example', SIDECAR_LISTEN: 'tcp', SIDECAR_HOST: '127.0.0.1', SIDECAR_PORT: '0', LOG_REQUESTS: 'false', ...env },
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
  });
  const output = captureOutput(child);
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((done) =>
    // 'close': the process has exited and its output is read to the end.
    child.on('close', (code, signal) => done({ code, signal })),
  );
  return { child, exited, ...output };
}

/** Resolves once the sidecar reports ready over IPC; rejects with its stderr if it exits first. */
export async function startSidecar(env: Record<string, string>): Promise<Running> {
  const started = launch('api/sidecar/main.ts', [], env);
  const url = await new Promise<string>((done, fail) => {
    started.child.on('message', (message: { type?: string; url?: string }) => {
      if (message.type === 'ready' && message.url) done(message.url);
    });
    started.exited.then(({ code }) => fail(new Error(`sidecar exited with ${code}: ${started.stderr()}`)));
  });
  return { ...started, url };
}

/** Runs a process to its end (a sidecar that must refuse to start, or the clients command). */
export async function runToEnd(script: string, args: string[], env: Record<string, string>): Promise<Finished> {
  const started = launch(script, args, env);
  const { code } = await started.exited;
  return { code, stdout: started.stdout(), stderr: started.stderr() };
}

/**
 * A JSON store in a temp DATA_DIR, filled by `seed` before its sidecar starts: the service an
 * operator command meets while the product runs. close() stops the sidecar and removes the directory.
 */
export async function seededSidecar(prefix: string, seed: (store: WaitlistStore) => Promise<void>, env: Record<string, string> = {}) {
  const dir = await mkdtemp(join(tmpdir(), prefix));
  const store = await JsonWaitlistStore.open(dir);
  await seed(store);
  await store.close();
  const sidecar = await startSidecar({ DATA_DIR: dir, ...env });
  return {
    dir,
    sidecar,
    async close() {
      sidecar.child.kill('SIGTERM');
      await sidecar.exited;
      await rm(dir, { recursive: true, force: true });
    },
  };
}
