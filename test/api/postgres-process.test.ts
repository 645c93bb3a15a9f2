/**
 * The real sidecar with DATABASE_URL: two processes on one PostgreSQL share the waitlist,
 * the OAuth clients (written by `npm run clients`) and the token keys; an unreachable database stops
 * the start with one paragraph. Skipped by name without PostgreSQL.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { API_PATHS } from '../../api/contract/index.ts';
import { postgresBinDir, type PostgresEngine } from '../support/engines/postgres.ts';
import { sharedPostgres } from '../support/engines/shared.ts';
import { describeWithEngine } from '../support/engines/require.ts';
import { runToEnd, startSidecar, type Running } from './support/process.ts';

const basic = (id: string, secret: string) => `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`;

async function token(sidecar: Running, id: string, secret: string): Promise<Response> {
  return fetch(`${sidecar.url}${API_PATHS.token}`, {
    method: 'POST',
    headers: { authorization: basic(id, secret), 'content-type': 'application/x-www-form-urlencoded' },
    body: 'grant_type=client_credentials',
  });
}

describeWithEngine('PostgreSQL', postgresBinDir(), 'sidecar processes on PostgreSQL', () => {
  let engine: PostgresEngine;
  const dirs: string[] = [];
  const running: Running[] = [];
  const dataDir = async () => {
    const dir = await mkdtemp(join(tmpdir(), 'pg-sidecar-'));
    dirs.push(dir);
    return dir;
  };
  beforeAll(async () => {
    engine = await sharedPostgres();
  });
  afterAll(async () => {
    for (const sidecar of running) {
      if (sidecar.child.exitCode === null) sidecar.child.kill('SIGTERM');
      await sidecar.exited;
    }
    await engine?.stop();
    await Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true })));
  });

  it('two sidecars on one database: a sign-up on A is counted on B, a CLI-made client works on both, A\'s token works on B, a deleted client is refused by both', async () => {
    const url = await engine.createSchema();
    const [a, b] = await Promise.all([
      startSidecar({ DATA_DIR: await dataDir(), DATABASE_URL: url, SIDECAR_LISTEN: 'tcp' }),
      startSidecar({ DATA_DIR: await dataDir(), DATABASE_URL: url, SIDECAR_LISTEN: 'tcp' }),
    ]);
    running.push(a, b);

    const created = await runToEnd('scripts/clients.ts', ['create', 'Dashboard', '--json'], { DATA_DIR: await dataDir(), DATABASE_URL: url });
    expect(created.code).toBe(0);
    const { client_id: id, client_secret: secret } = JSON.parse(created.stdout) as { client_id: string; client_secret: string };

    const signup = await fetch(`${a.url}${API_PATHS.waitlist}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'Ada@Example.com', consent: true, role: 'data' }),
    });
    expect(signup.status).toBe(200);

    const fromA = await token(a, id, secret);
    expect(fromA.status).toBe(200);
    const { access_token } = (await fromA.json()) as { access_token: string };
    const stats = await fetch(`${b.url}${API_PATHS.stats}`, { headers: { authorization: `Bearer ${access_token}` } });
    expect(stats.status).toBe(200);
    expect(((await stats.json()) as { total: number }).total).toBe(1);

    const deleted = await runToEnd('scripts/clients.ts', ['delete', id], { DATA_DIR: await dataDir(), DATABASE_URL: url });
    expect(deleted.code).toBe(0);
    expect((await token(a, id, secret)).status).toBe(401);
    expect((await token(b, id, secret)).status).toBe(401);
    // Read once it has exited: a log line is written at the end of its event-loop turn (api/log/logger.ts), and by then all of them are out.
    a.child.kill('SIGTERM');
    await a.exited;
    expect(a.stdout()).toMatch(/store: PostgreSQL postgres:\/\/\S+, 0 records/);
  });

  it('an unreachable database stops the start: exit 1, one paragraph naming DATABASE_URL, no password', async () => {
    const result = await runToEnd('api/sidecar/main.ts', [], { DATA_DIR: await dataDir(), DATABASE_URL: 'postgres://waitlist:s3cret@127.0.0.1:1/waitlist' });
    expect(result.code).toBe(1);
    expect(result.stderr + result.stdout).toMatch(/The PostgreSQL database at postgres:\/\/waitlist:\*\*\*@127\.0\.0\.1:1\/waitlist \(DATABASE_URL\) cannot be reached/);
    expect(result.stderr + result.stdout).not.toContain('s3cret');
  });
});
