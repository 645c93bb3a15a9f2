/**
 * A throwaway PostgreSQL server for the benches: initdb in a temp dir, the server on a free
 * loopback port with durable commits (fsync on, as in production), stopped by its PID. As root,
 * initdb and postgres run as the `postgres` user through setpriv, which execs, so the PID held is
 * the server's.
 */
import { spawn, spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { chown, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { freePort } from '../ports.ts';

const isRoot = process.getuid?.() === 0;

function asPostgres(bin: string, args: string[]): [string, string[]] {
  return isRoot ? ['setpriv', ['--reuid=postgres', '--regid=postgres', '--clear-groups', '--reset-env', bin, ...args]] : [bin, args];
}

export type Postgres = Awaited<ReturnType<typeof startPostgres>>;

export async function startPostgres() {
  const version = readdirSync('/usr/lib/postgresql').sort((a, b) => Number(b) - Number(a))[0];
  const bin = `/usr/lib/postgresql/${version}/bin`;
  const dir = await mkdtemp(path.join(tmpdir(), 'bench-pg-'));
  if (isRoot) await chown(dir, id('-u'), id('-g'));
  const data = path.join(dir, 'data');
  const init = spawnSync(...asPostgres(`${bin}/initdb`, ['-D', data, '-U', 'postgres', '-A', 'trust', '-E', 'UTF8', '--locale=C.UTF-8', '--no-sync']), { encoding: 'utf8' });
  if (init.status !== 0) throw new Error(`initdb failed: ${init.stderr}`);
  const port = await freePort();
  const settings = ['-c', 'listen_addresses=127.0.0.1', '-c', 'max_connections=200'];
  const child = spawn(...asPostgres(`${bin}/postgres`, ['-D', data, '-p', String(port), '-k', dir, ...settings]), { stdio: ['ignore', 'ignore', 'pipe'] });
  await new Promise<void>((done, fail) => {
    let log = '';
    child.stderr!.on('data', (chunk) => {
      log += chunk;
      if (log.includes('ready to accept connections')) done();
    });
    child.once('exit', (code) => fail(new Error(`postgres exited with ${code}:\n${log}`)));
  });
  const admin = `postgres://postgres@127.0.0.1:${port}/postgres`;
  return {
    /** A new empty database on the server; its URL. */
    async database(name: string) {
      const client = new pg.Client({ connectionString: admin });
      await client.connect();
      await client.query(`CREATE DATABASE "${name}"`).finally(() => client.end());
      return `postgres://postgres@127.0.0.1:${port}/${name}`;
    },
    async stop() {
      if (child.exitCode === null) {
        const exited = new Promise((done) => child.once('exit', done));
        // SIGINT: PostgreSQL's fast shutdown.
        child.kill('SIGINT');
        await exited;
      }
      await rm(dir, { recursive: true, force: true });
    },
  };
}

function id(flag: '-u' | '-g'): number {
  return Number(spawnSync('id', [flag, 'postgres'], { encoding: 'utf8' }).stdout.trim());
}
