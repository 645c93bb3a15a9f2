/**
 * The statistics' counters survive an instance killed mid-load: a sign-up's row and its counts
 * commit or roll back together, so after SIGKILL of a sidecar process during concurrent sign-ups
 * and repeats, `npm run waitlist -- stats --verify` finds no difference and every acknowledged
 * sign-up is counted. Skipped by name without PostgreSQL.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { API_PATHS, ROLES } from '../../api/contract/index.ts';
import { postgresBinDir, startPostgres, type PostgresEngine } from '../support/engines/postgres.ts';
import { describeWithEngine } from '../support/engines/require.ts';
import { runCommand } from './support/cli.ts';
import { startSidecar, type Running } from './support/process.ts';

describeWithEngine('PostgreSQL', postgresBinDir(), 'statistics after a killed instance', () => {
  let engine: PostgresEngine;
  const dirs: string[] = [];
  const running: Running[] = [];
  const dataDir = async () => {
    const dir = await mkdtemp(join(tmpdir(), 'pg-kill-'));
    dirs.push(dir);
    return dir;
  };
  beforeAll(async () => {
    engine = await startPostgres();
  });
  afterAll(async () => {
    for (const sidecar of running) {
      if (sidecar.child.exitCode === null && sidecar.child.signalCode === null) sidecar.child.kill('SIGTERM');
      await sidecar.exited;
    }
    await engine?.stop();
    await Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true })));
  });

  it('stats --verify: 0 differences after SIGKILL of an instance during concurrent sign-ups and repeats; every acknowledged sign-up is counted', async () => {
    const url = await engine.createDatabase();
    const limits = { RATE_LIMIT_STANDARD: '100000', RATE_LIMIT_RELAXED: '100000' };
    const a = await startSidecar({ DATA_DIR: await dataDir(), DATABASE_URL: url, ...limits });
    running.push(a);
    const acknowledged = new Set<string>();
    const attempted = new Set<string>();
    let stop = false;
    const lanes = Array.from({ length: 16 }, async (_, lane) => {
      for (let i = 0; !stop; i += 1) {
        // Every third request repeats an earlier address of the lane with another role.
        const email = i % 3 === 2 ? `l${lane}-${i - 2}@example.com` : `l${lane}-${i}@example.com`;
        attempted.add(email);
        const res = await fetch(`${a.url}${API_PATHS.waitlist}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ email, consent: true, role: ROLES[i % ROLES.length], lang: i % 2 ? 'de' : 'en' }),
        }).catch(() => undefined);
        if (!res) return; // the instance is gone
        if (res.status === 200) acknowledged.add(email);
        await res.arrayBuffer();
      }
    });
    while (acknowledged.size < 150) await new Promise((done) => setTimeout(done, 10));
    a.child.kill('SIGKILL');
    expect((await a.exited).signal).toBe('SIGKILL');
    stop = true;
    await Promise.all(lanes);

    const b = await startSidecar({ DATA_DIR: await dataDir(), DATABASE_URL: url, ...limits });
    running.push(b);
    const after = await fetch(`${b.url}${API_PATHS.waitlist}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'after@example.com', consent: true, role: 'data' }),
    });
    expect(after.status).toBe(200);

    const result = await runCommand('scripts/waitlist.ts', ['stats', '--verify', '--json'], { DATA_DIR: await dataDir(), DATABASE_URL: url });
    expect(result.code).toBe(0);
    const report = JSON.parse(result.stdout) as { stats: { total: number }; records: number; differences: unknown[] };
    expect(report.differences).toEqual([]);
    expect(report.stats.total).toBeGreaterThanOrEqual(acknowledged.size + 1);
    expect(report.stats.total).toBeLessThanOrEqual(attempted.size + 1);
  }, 60_000);
});
