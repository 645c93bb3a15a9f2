/**
 * docs/deploy.md, "Backups", PostgreSQL: the guide's pg_dump while sign-ups flow into the running
 * sidecar, pg_restore into an empty database, a sidecar started on it serves the records and the
 * same OAuth client (clients and signing keys live in the database too).
 */
import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { runToEnd, startSidecar, type Running } from '../api/support/process.ts';
import { postgresBinDir, type PostgresEngine } from '../support/engines/postgres.ts';
import { sharedPostgres } from '../support/engines/shared.ts';
import { describeWithEngine } from '../support/engines/require.ts';
import { FLOW_CLIENTS, startSignUpFlow, totalSignUps, type Client } from './sign-ups.ts';

const BIN = postgresBinDir();
const run = promisify(execFile);

describeWithEngine('PostgreSQL', BIN, 'backup with pg_dump, restore with pg_restore (DATABASE_URL)', () => {
  let engine: PostgresEngine;
  let dir: string;
  const sidecars: Running[] = [];

  beforeAll(async () => {
    engine = await sharedPostgres();
    dir = await mkdtemp(path.join(tmpdir(), 'backup-pg-'));
  }, 60_000);
  afterAll(async () => {
    for (const sidecar of sidecars) if (sidecar.child.exitCode === null) (sidecar.child.kill('SIGTERM'), await sidecar.exited);
    await engine?.stop();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  async function start(databaseUrl: string): Promise<Running> {
    const sidecar = await startSidecar({ DATABASE_URL: databaseUrl, DATA_DIR: path.join(dir, `data-${sidecars.length}`), SIDECAR_LISTEN: 'tcp', RATE_LIMIT_STANDARD: '1000000' });
    sidecars.push(sidecar);
    return sidecar;
  }

  test('pg_dump while sign-ups flow; pg_restore into an empty database; the restored service has the records and the client', async () => {
    const live = await engine.createDatabase();
    const sidecar = await start(live);
    const created = await runToEnd('scripts/clients.ts', ['create', 'Backup check', '--json'], { DATABASE_URL: live, DATA_DIR: path.join(dir, 'cli') });
    expect(created.code).toBe(0);
    const client = JSON.parse(created.stdout) as Client;

    const flow = await startSignUpFlow(sidecar.url);
    const before = flow.acknowledged();
    const dump = path.join(dir, 'waitlist.dump');
    await run(path.join(BIN!, 'pg_dump'), ['--format=custom', `--file=${dump}`, live]);
    const after = flow.acknowledged();
    await flow.stop();
    expect(after).toBeGreaterThan(before);
    sidecar.child.kill('SIGTERM');
    await sidecar.exited;

    const fresh = await engine.createDatabase();
    await run(path.join(BIN!, 'pg_restore'), ['--no-owner', `--dbname=${fresh}`, dump]);
    const restored = await start(fresh);
    const total = await totalSignUps(restored.url, client);
    expect(total).toBeGreaterThanOrEqual(before);
    expect(total).toBeLessThanOrEqual(after + FLOW_CLIENTS);
  }, 90_000);
});
