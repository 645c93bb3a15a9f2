/**
 * The database's ceiling for a sign-up (scripts/bench/signup-peers.ts): PostgreSQL's own pgbench
 * running the store's statement (store/postgres/upsert-statement.ts: the same text, the same
 * parameters the store builds for a JSON sign-up, prepared once per connection as the store's named
 * statement is) with a random address per transaction, one transaction (one durable commit) each.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { upsertValues, UPSERT_SQL } from '../../api/sidecar/store/postgres/upsert-statement.ts';
import { percentiles, treeCpuSeconds, type SignupRun } from './signup-load.ts';

const run = promisify(execFile);

/** SQL literal of one parameter. */
const literal = (value: unknown) => (value === null ? 'NULL' : `'${String(value).replaceAll("'", "''")}'`);

/** The pgbench script: the statement with a random address for $1, the transaction's time for $2. */
export function pgbenchScript(): string {
  const values = upsertValues({ email: 'x@example.com', consent: true, role: 'data', lang: 'de' }, 'json', '');
  const sql = UPSERT_SQL.replace(/\$(\d+)/g, (_, n: string) => {
    if (n === '1') return `('pgbench-' || :address::text || '@example.com')`;
    if (n === '2') return 'now()';
    return literal(values[Number(n) - 1]);
  });
  return `\\set address random(1, 1000000000000)\n${sql.trim().replace(/\s*\n\s*/g, ' ')};\n`;
}

/** pgbench against `url` for `seconds` with `clients` connections (at `rate` transactions/s if given); the CPU column is PostgreSQL's. */
export async function pgbenchLoad(pgbench: string, url: string, clients: number, seconds: number, postgresPid: number, rate?: number): Promise<SignupRun> {
  const dir = await mkdtemp(path.join(tmpdir(), 'bench-pgbench-'));
  try {
    const script = path.join(dir, 'signup.sql');
    await writeFile(script, pgbenchScript());
    const at = new URL(url);
    const args = ['-n', '-M', 'prepared', '-c', String(clients), '-j', '2', '-f', script, '-h', at.hostname, '-p', at.port, '-U', decodeURIComponent(at.username) || 'postgres', at.pathname.slice(1)];
    await run(pgbench, [...args, '-T', '1'], { cwd: dir });
    const before = await treeCpuSeconds(postgresPid);
    const { stdout } = await run(pgbench, [...args, '-T', String(seconds), ...(rate ? ['-R', String(rate)] : []), '-l', '--log-prefix', path.join(dir, 'log')], { cwd: dir });
    const after = await treeCpuSeconds(postgresPid);
    // Each log line: client, transaction, latency in µs, script, epoch seconds, µs.
    const samples: number[] = [];
    for (const file of (await readdir(dir)).filter((name) => name.startsWith('log'))) {
      for (const line of (await readFile(path.join(dir, file), 'utf8')).split('\n')) {
        const latency = Number(line.split(' ')[2]);
        if (line && Number.isFinite(latency)) samples.push(latency / 1000);
      }
    }
    const processed = Number(/number of transactions actually processed: (\d+)/.exec(stdout)?.[1] ?? samples.length);
    const failed = Number(/number of failed transactions: (\d+)/.exec(stdout)?.[1] ?? 0);
    return { perSecond: processed / seconds, ...percentiles(samples), cpuMicros: [((after - before) * 1e6) / Math.max(1, processed)], failed };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
