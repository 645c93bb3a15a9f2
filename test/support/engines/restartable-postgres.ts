/**
 * A throwaway PostgreSQL that a test can crash and start again on the same data and port, as an
 * outage does: stopImmediate() sends the postmaster SIGQUIT by its PID (what `pg_ctl -m immediate`
 * sends: no checkpoint, recovery at the next start), start() runs it again. As root, postgres runs
 * as the `postgres` user through setpriv, which execs, so the PID held is the server's.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chown, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../stack.ts';
import { postgresBinDir } from './postgres.ts';

export interface RestartablePostgres {
  /** URL of the `postgres` database (superuser, trust authentication). */
  url: string;
  pid(): number;
  /** Crashes the server (immediate shutdown) and waits for its exit. */
  stopImmediate(): Promise<void>;
  /** Starts it again on the same port and data; resolves when it accepts connections. */
  start(): Promise<void>;
  /** Stops it (if running) and removes its directory. */
  stop(): Promise<void>;
}

const isRoot = process.getuid?.() === 0;
const asPostgres = (bin: string, args: string[]): [string, string[]] =>
  isRoot ? ['setpriv', ['--reuid=postgres', '--regid=postgres', '--clear-groups', '--reset-env', bin, ...args]] : [bin, args];
const id = (flag: string) => Number(spawnSync('id', [flag, 'postgres'], { encoding: 'utf8' }).stdout.trim());

export async function startRestartablePostgres(): Promise<RestartablePostgres> {
  const bin = postgresBinDir();
  if (!bin) throw new Error('PostgreSQL is not installed (no postgres binary found)');
  const dir = await mkdtemp(join(tmpdir(), 'pg-outage-'));
  if (isRoot) await chown(dir, id('-u'), id('-g'));
  const data = join(dir, 'data');
  const [initCmd, initArgs] = asPostgres(join(bin, 'initdb'), ['-D', data, '-U', 'postgres', '-A', 'trust', '-E', 'UTF8', '--locale=C.UTF-8', '--no-sync']);
  const init = spawnSync(initCmd, initArgs, { encoding: 'utf8' });
  if (init.status !== 0) throw new Error(`initdb failed: ${init.stderr}`);
  const port = await freePort();
  // fsync stays on: an acknowledged sign-up must survive the crash for real.
  const args = ['-D', data, '-p', String(port), '-k', dir, '-c', 'listen_addresses=127.0.0.1', '-c', 'fsync=on'];
  let child: ChildProcess;
  let exited: Promise<void>;
  const start = async () => {
    const [cmd, cmdArgs] = asPostgres(join(bin, 'postgres'), args);
    child = spawn(cmd, cmdArgs, { stdio: ['ignore', 'ignore', 'pipe'] });
    exited = new Promise((done) => child.once('exit', () => done()));
    await new Promise<void>((done, fail) => {
      let log = '';
      const onData = (chunk: Buffer) => {
        log += chunk.toString();
        if (!log.includes('ready to accept connections')) return;
        child.stderr!.off('data', onData);
        child.stderr!.resume();
        done();
      };
      child.stderr!.on('data', onData);
      void exited.then(() => fail(new Error(`postgres exited before it was ready:\n${log}`)));
    });
  };
  const halt = async (signal: NodeJS.Signals) => {
    if (child.exitCode === null && child.signalCode === null) process.kill(child.pid!, signal);
    await exited;
  };
  await start();
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    pid: () => child.pid!,
    stopImmediate: () => halt('SIGQUIT'),
    start,
    async stop() {
      await halt('SIGINT');
      await rm(dir, { recursive: true, force: true });
    },
  };
}
