/**
 * A throwaway Redis (or Valkey) for tests and benchmarks: a child process on a free loopback port
 * with a temp directory, no persistence, not daemonised (so the PID held is the server), stopped
 * by that PID (../shared/reference/scale-notes.md). Valkey is preferred where installed.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../stack.ts';
import { findBinary } from './require.ts';

/** The server binary, or undefined when neither engine is installed. */
export const REDIS_BINARY = findBinary(['valkey-server', 'redis-server']);

export interface RedisEngine {
  url: string;
  port: number;
  pid: number;
  process: ChildProcess;
  /** SIGKILL (default SIGTERM) the server by its PID and wait for its exit; keeps the temp dir. */
  kill(signal?: NodeJS.Signals): Promise<void>;
  /** Starts the server again on the same port (after kill). */
  restart(): Promise<void>;
  /** Stops the server (if running) and removes its temp dir. */
  stop(): Promise<void>;
}

/** `args`: further server options, e.g. ['--databases', '256']. */
export async function startRedis(args: readonly string[] = []): Promise<RedisEngine> {
  if (!REDIS_BINARY) throw new Error('neither valkey-server nor redis-server is installed');
  const binary = REDIS_BINARY;
  const dir = await mkdtemp(join(tmpdir(), 'redis-engine-'));
  const port = await freePort();
  let child: ChildProcess;
  let exited: Promise<void>;

  const launch = async () => {
    const options = ['--bind', '127.0.0.1', '--port', String(port), '--dir', dir, '--save', '', '--appendonly', 'no', ...args];
    child = spawn(binary, options, { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    exited = new Promise((done) => child.once('exit', () => done()));
    await new Promise<void>((ready, fail) => {
      const onData = (chunk: Buffer) => {
        output += chunk;
        if (/Ready to accept connections/.test(output)) {
          child.stdout!.off('data', onData);
          child.stdout!.resume();
          ready();
        }
      };
      child.stdout!.on('data', onData);
      child.stderr!.on('data', (chunk) => (output += chunk));
      void exited.then(() => fail(new Error(`${binary} exited before it was ready:\n${output}`)));
    });
  };
  await launch();

  const kill = async (signal: NodeJS.Signals = 'SIGTERM') => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    process.kill(child.pid!, signal);
    await exited;
  };
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    get pid() {
      return child.pid!;
    },
    get process() {
      return child;
    },
    kill,
    restart: launch,
    async stop() {
      await kill();
      await rm(dir, { recursive: true, force: true });
    },
  };
}
