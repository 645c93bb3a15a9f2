/**
 * The operator's clients command (`node scripts/clients.ts`) on a temp DATA_DIR, run as a real
 * process with a clean environment: create, list, delete, --json, --help and usage errors, and a
 * created client that the token endpoint accepts.
 */
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../api/sidecar/app.ts';
import { newClientId } from '../../api/sidecar/domain/clients.ts';
import { clientsPath, FileClientDirectory } from '../../api/sidecar/store/json/clients-file.ts';
import { CapturingLogger, ManualClock, testConfig } from './support/harness.ts';
import { runCommand } from './support/cli.ts';
import { issueToken } from './support/requests.ts';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'clients-cli-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

const clients = (...args: string[]) => runCommand('scripts/clients.ts', args, { DATA_DIR: dir });

const stored = async () => JSON.parse(await readFile(clientsPath(dir), 'utf8')).clients as { id: string; name: string; secretHash: string }[];

// Each case starts node processes; on a busy 2-core machine one start can take seconds. The cases
// that change the clients walk one DATA_DIR in order, each leaving what the next one expects; the
// usage and help cases, which must change nothing, share an empty one.
describe('clients command', { timeout: 60_000 }, () => {
  describe('on one DATA_DIR, in order', () => {
    let a: { client_id: string };
    let b: { client_id: string };

    it('list: tab-separated lines, or an array with --json; never a secret or its hash', async () => {
      expect((await clients('list')).stdout).toContain('No production clients');
      expect(JSON.parse((await clients('list', '--json')).stdout)).toEqual([]);
      a = JSON.parse((await clients('create', '--json', 'A')).stdout);
      b = JSON.parse((await clients('create', 'B', '--json')).stdout);
      const listed = JSON.parse((await clients('list', '--json')).stdout);
      expect(listed.map((c: { id: string; name: string }) => [c.id, c.name])).toEqual([[a.client_id, 'A'], [b.client_id, 'B']]);
      expect(Object.keys(listed[0]).sort()).toEqual(['createdAt', 'id', 'name', 'scopes']);
      const people = await clients('list');
      expect(people.stdout.trimEnd().split('\n').map((line) => line.split('\t')[0])).toEqual([a.client_id, b.client_id]);
      for (const text of [people.stdout, JSON.stringify(listed)]) expect(text).not.toMatch(/scrypt|client_secret/);
    });

    it('delete ID: removes that client only (exit 0); an unknown id -> exit 3, nothing changed', async () => {
      const run = await clients('delete', a.client_id);
      expect(run.code).toBe(0);
      expect(run.stdout).toContain(`Deleted client ${a.client_id}`);
      expect((await stored()).map((c) => c.id)).toEqual([b.client_id]);
      const missing = await clients('delete', 'no-such-id');
      expect(missing.code).toBe(3);
      expect(missing.stderr).toContain('No client with id "no-such-id"');
      expect((await stored()).map((c) => c.id)).toEqual([b.client_id]);
    });

    it('delete -- ID: an id that begins with "-" is deleted when given after --', async () => {
      const file = JSON.parse(await readFile(clientsPath(dir), 'utf8'));
      file.clients[0].id = `-${b.client_id.slice(1)}`;
      await writeFile(clientsPath(dir), JSON.stringify(file));
      const run = await clients('delete', '--', file.clients[0].id);
      expect(run.code).toBe(0);
      expect(await stored()).toEqual([]);
    });

    it('create Beta --json: creates "Beta" (the flag is not part of the name), prints id and secret once as JSON; the token endpoint accepts them', async () => {
      const run = await clients('create', 'Beta', '--json');
      expect(run.code).toBe(0);
      const created = JSON.parse(run.stdout);
      expect(created).toMatchObject({ name: 'Beta', scopes: ['waitlist:stats:read'] });
      expect(created.client_id).toMatch(/^[A-Za-z0-9_-]{16}$/);
      expect(created.client_secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
      const [record] = await stored();
      expect(record).toMatchObject({ id: created.client_id, name: 'Beta' });
      expect(JSON.stringify(record)).not.toContain(created.client_secret);
      expect((await stat(clientsPath(dir))).mode & 0o777).toBe(0o600);

      const config = testConfig({ DATA_DIR: dir });
      const directory = await new FileClientDirectory(clientsPath(dir)).load();
      const keys = { production: new Uint8Array(32).fill(1), sandbox: new Uint8Array(32).fill(2) };
      const app = createApp({ store: undefined as never, clock: new ManualClock(), keys, clients: directory, config, logger: new CapturingLogger() });
      expect((await issueToken(app, 'production', created.client_id, created.client_secret)).status).toBe(200);
    });

    it('create: a name with spaces in quotes; the people format says the secret is shown once', async () => {
      const run = await clients('create', 'Partner dashboard');
      expect(run.code).toBe(0);
      expect(run.stdout).toContain('Created client "Partner dashboard"');
      expect(run.stdout).toMatch(/client_secret: [A-Za-z0-9_-]{43}\n/);
      expect(run.stdout).toContain('shown only this once');
      expect((await stored()).map((c) => c.name)).toEqual(['Beta', 'Partner dashboard']);
    });
  });

  it('a new client id never begins with "-", so it is never read as an option on the command line', () => {
    for (let i = 0; i < 2000; i++) expect(newClientId()).not.toMatch(/^-/);
  });

  describe('on an empty DATA_DIR, which stays empty', () => {
    let empty: string;
    beforeAll(async () => {
      empty = await mkdtemp(join(tmpdir(), 'clients-cli-empty-'));
    });
    afterAll(() => rm(empty, { recursive: true, force: true }));
    const onEmpty = (...args: string[]) => runCommand('scripts/clients.ts', args, { DATA_DIR: empty });

    it('usage: no or unknown command, unknown flag, missing, blank or extra arguments -> exit 2 naming the problem, with the usage', async () => {
      const cases: [string[], string][] = [
        [[], 'missing command'],
        [['rename'], 'unknown command "rename"'],
        [['create'], 'missing NAME'],
        [['create', ' '], 'NAME is empty'],
        [['create', 'A', 'B'], 'unexpected argument "B"'],
        [['delete'], 'missing ID'],
        [['list', '--all'], "'--all'"],
        [['list', 'extra'], 'unexpected argument "extra"'],
      ];
      const runs = await Promise.all(cases.map(([args]) => onEmpty(...args)));
      runs.forEach((run, i) => {
        expect([run.code, run.stdout]).toEqual([2, '']);
        expect(run.stderr).toContain(cases[i][1]);
        expect(run.stderr).toContain('npm run clients --');
      });
      await expect(stat(clientsPath(empty))).rejects.toThrow();
    });

    it('--help: on the command and on every subcommand -> the usage on stdout, exit 0', async () => {
      const cases = [['--help'], ['-h'], ['create', '--help'], ['list', '--help'], ['delete', '--help'], ['delete', '-h']];
      const runs = await Promise.all(cases.map((args) => onEmpty(...args)));
      runs.forEach((run, i) => {
        expect([run.code, run.stderr]).toEqual([0, '']);
        expect(run.stdout).toContain(`npm run clients -- ${cases[i].length === 2 ? cases[i][0] : 'create'}`);
      });
      await expect(stat(clientsPath(empty))).rejects.toThrow();
    });
  });
});
