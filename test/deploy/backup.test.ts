/**
 * scripts/backup.ts: a backup taken while sign-ups flow into the running sidecar holds every
 * sign-up acknowledged before it started, and a service started on the restored data directory
 * serves those records, the same OAuth clients and the same signing keys.
 */
import { readFile, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, expect, test } from 'vitest';
import { KEYS_FILE_NAME } from '../../api/sidecar/store/json/keys-file.ts';
import { runToEnd, startSidecar, type Running } from '../api/support/process.ts';
import { FLOW_CLIENTS, signUp, startSignUpFlow, totalSignUps, type Client } from './sign-ups.ts';

const dirs: string[] = [];
const running: Running[] = [];
afterEach(async () => {
  for (const sidecar of running.splice(0)) {
    sidecar.child.kill('SIGTERM');
    await sidecar.exited;
  }
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});

async function temp(prefix: string): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), prefix));
  dirs.push(dir);
  return dir;
}

async function start(dataDir: string): Promise<Running> {
  // TCP, so that the test reaches it with fetch (the default is a Unix socket in DATA_DIR).
  const sidecar = await startSidecar({ DATA_DIR: dataDir, RATE_LIMIT_STANDARD: '1000000', SIDECAR_LISTEN: 'tcp' });
  running.push(sidecar);
  return sidecar;
}

async function stop(sidecar: Running): Promise<void> {
  sidecar.child.kill('SIGTERM');
  expect((await sidecar.exited).code).toBe(0);
  running.splice(running.indexOf(sidecar), 1);
}

const backup = (command: 'create' | 'restore', folder: string, dataDir: string) => runToEnd('scripts/backup.ts', [command, folder], { DATA_DIR: dataDir });

test('backup while sign-ups flow, restore into a fresh data directory, start: the records, clients and keys are there', async () => {
  const live = await temp('backup-live-');
  const created = await runToEnd('scripts/clients.ts', ['create', 'Backup check', '--json'], { DATA_DIR: live });
  expect(created.code).toBe(0);
  const client = JSON.parse(created.stdout) as Client;
  const sidecar = await start(live);

  const flow = await startSignUpFlow(sidecar.url);
  const ackedBeforeBackup = flow.acknowledged();
  const folder = path.join(await temp('backup-copy-'), 'backup');
  const made = await backup('create', folder, live);
  const ackedAfterBackup = flow.acknowledged();
  await flow.stop();
  expect(made.stderr).toBe('');
  expect(made.code).toBe(0);
  // Sign-ups were committed while the backup ran: it did not catch an idle store.
  expect(ackedAfterBackup).toBeGreaterThan(ackedBeforeBackup);
  await stop(sidecar);

  const fresh = path.join(await temp('backup-fresh-'), 'data');
  const restored = await backup('restore', folder, fresh);
  expect([restored.code, restored.stderr]).toEqual([0, '']);
  expect(await readFile(path.join(fresh, KEYS_FILE_NAME), 'utf8')).toBe(await readFile(path.join(live, KEYS_FILE_NAME), 'utf8'));

  const again = await start(fresh);
  // Every sign-up acknowledged before the backup began is in it (the backup reads one whole
  // commit, taken while it ran); the same client authenticates against the restored service.
  const total = await totalSignUps(again.url, client);
  expect(total).toBeGreaterThanOrEqual(ackedBeforeBackup);
  expect(total).toBeLessThanOrEqual(ackedAfterBackup + FLOW_CLIENTS);
  expect(made.stdout).toContain(`${total} records`);
}, 60_000);

test('restore refuses while the service holds the data directory, and never overwrites a waitlist', async () => {
  const live = await temp('backup-live-');
  const sidecar = await start(live);
  expect(await signUp(sidecar.url, 'ada@example.com')).toBe(200);
  const folder = path.join(await temp('backup-copy-'), 'backup');
  expect((await backup('create', folder, live)).code).toBe(0);

  const busy = await backup('restore', folder, live);
  expect(busy.code).toBe(1);
  expect(busy.stderr).toMatch(/in use by the running service .*stop it/);
  await stop(sidecar);

  const occupied = await backup('restore', folder, live);
  expect(occupied.code).toBe(1);
  expect(occupied.stderr).toMatch(/already holds a waitlist/);
});

test('create refuses a folder that is not empty; usage errors exit 2, --help exits 0', async () => {
  const live = await temp('backup-live-');
  const folder = await temp('backup-copy-');
  await runToEnd('scripts/clients.ts', ['create', 'x'], { DATA_DIR: folder });
  // Each command is refused (or helps) before it touches anything: they run side by side.
  const [full, copy, bogus, help] = await Promise.all([
    backup('create', folder, live),
    runToEnd('scripts/backup.ts', ['copy', folder], { DATA_DIR: live }),
    runToEnd('scripts/backup.ts', ['create', '--bogus', folder], { DATA_DIR: live }),
    runToEnd('scripts/backup.ts', ['--help'], { DATA_DIR: live }),
  ]);
  expect([full.code, full.stderr]).toEqual([1, expect.stringMatching(/not empty/)]);
  expect([copy.code, bogus.code]).toEqual([2, 2]);
  expect([help.code, help.stdout]).toEqual([0, expect.stringContaining('usage:')]);
});
