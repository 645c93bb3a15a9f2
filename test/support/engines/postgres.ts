/**
 * A throwaway PostgreSQL server for tests and the benchmark (../shared/reference/scale-notes.md):
 * initdb into a temp dir, the server on a free loopback port with its Unix socket in that dir,
 * stopped by its PID (SIGINT = fast shutdown) and awaited. As root, initdb and postgres run as the
 * `postgres` user through setpriv, which execs (no middle process), so the PID held is the server's.
 * Each test file takes a fresh database of its own with createDatabase() (CREATE DATABASE is fast).
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync } from 'node:fs';
import { chown, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { freePort } from '../stack.ts';

export interface PostgresEngine {
  /** URL of the `postgres` database (superuser, trust authentication). */
  url: string;
  pid: number;
  /** A new empty database; its URL. */
  createDatabase(name?: string): Promise<string>;
  /** A new empty schema in the `postgres` database; a URL whose connections use only it
   * (search_path). Much faster than a database (~30 ms against ~300 ms): one per test harness. */
  createSchema(name?: string): Promise<string>;
  stop(): Promise<void>;
}

/** Directory of the newest installed PostgreSQL's binaries, or undefined when there is none. */
export function postgresBinDir(): string | undefined {
  const root = '/usr/lib/postgresql';
  if (existsSync(root)) {
    const versions = readdirSync(root).filter((v) => /^\d+$/.test(v)).sort((a, b) => Number(b) - Number(a));
    for (const version of versions) if (existsSync(join(root, version, 'bin', 'postgres'))) return join(root, version, 'bin');
  }
  const found = spawnSync('sh', ['-c', 'command -v postgres'], { encoding: 'utf8' }).stdout.trim();
  return found ? join(found, '..') : undefined;
}

const isRoot = process.getuid?.() === 0;
/** As root, run as the postgres user (initdb refuses root); setpriv execs, keeping the PID. */
function asPostgres(bin: string, args: string[]): [string, string[]] {
  return isRoot ? ['setpriv', ['--reuid=postgres', '--regid=postgres', '--clear-groups', '--reset-env', bin, ...args]] : [bin, args];
}

export interface StartOptions {
  /** fsync=off is fine for tests; the benchmark measures durable commits (true). */
  durable?: boolean;
  /** Extra `-c name=value` settings. */
  settings?: Record<string, string>;
}

export async function startPostgres(options: StartOptions = {}): Promise<PostgresEngine> {
  const bin = postgresBinDir();
  if (!bin) throw new Error('PostgreSQL is not installed (no postgres binary found)');
  const dir = await mkdtemp(join(tmpdir(), 'pg-engine-'));
  if (isRoot) await chown(dir, pgUid(), pgGid());
  const data = join(dir, 'data');
  const [initCmd, initArgs] = asPostgres(join(bin, 'initdb'), ['-D', data, '-U', 'postgres', '-A', 'trust', '-E', 'UTF8', '--locale=C.UTF-8', '--no-sync']);
  const init = spawnSync(initCmd, initArgs, { encoding: 'utf8' });
  if (init.status !== 0) throw new Error(`initdb failed: ${init.stderr}`);
  const port = await freePort();
  const settings = { listen_addresses: '127.0.0.1', fsync: options.durable ? 'on' : 'off', ...options.settings };
  const args = ['-D', data, '-p', String(port), '-k', dir, ...Object.entries(settings).flatMap(([k, v]) => ['-c', `${k}=${v}`])];
  const [cmd, cmdArgs] = asPostgres(join(bin, 'postgres'), args);
  const child = spawn(cmd, cmdArgs, { stdio: ['ignore', 'ignore', 'pipe'] });
  await ready(child);
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  return postgresOn(port, child.pid!, async () => {
    if (child.exitCode === null && child.signalCode === null) process.kill(child.pid!, 'SIGINT');
    await exited;
    await rm(dir, { recursive: true, force: true });
  });
}

/**
 * The engine's operations on a server listening on 127.0.0.1:`port` (started here, or the run's
 * shared one: test/support/engines/shared.ts); `stop` is what the owner does when done with it.
 */
export function postgresOn(port: number, pid: number, stop: () => Promise<void>): PostgresEngine {
  const url = `postgres://postgres@127.0.0.1:${port}/postgres`;
  return {
    url,
    pid,
    async createDatabase(name = uniqueName()) {
      await asAdmin(url, `CREATE DATABASE "${name}"`);
      return `postgres://postgres@127.0.0.1:${port}/${name}`;
    },
    async createSchema(name = uniqueName()) {
      await asAdmin(url, `CREATE SCHEMA "${name}"`);
      return `${url}?options=${encodeURIComponent(`-c search_path=${name}`)}`;
    },
    stop,
  };
}

/** Unique across the test files of a run, which may share one server (and a worker process). */
const uniqueName = () => `test_${process.pid}_${randomBytes(4).toString('hex')}`;

async function asAdmin(url: string, sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/** Resolves when the server logs that it accepts connections; rejects with its log if it exits. */
function ready(child: ChildProcess): Promise<void> {
  return new Promise((done, fail) => {
    let log = '';
    const onData = (chunk: Buffer) => {
      log += chunk.toString();
      if (log.includes('ready to accept connections')) {
        child.stderr!.off('data', onData);
        child.stderr!.resume(); // keep draining, or a full pipe would block the server
        done();
      }
    };
    child.stderr!.on('data', onData);
    child.once('exit', (code) => fail(new Error(`postgres exited (${code}) before it was ready:\n${log}`)));
    child.once('error', fail);
  });
}

function pgUid(): number {
  return Number(spawnSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).stdout.trim());
}
function pgGid(): number {
  return Number(spawnSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).stdout.trim());
}
