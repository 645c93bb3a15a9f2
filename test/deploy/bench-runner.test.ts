import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { expect, test } from 'vitest';

const ROOT = path.join(import.meta.dirname, '../..');

/** `npm run bench -- ARGS` as a user runs it: the runner's exit code, its table (stdout) and its progress (stderr). */
async function bench(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const run = promisify(execFile)(process.execPath, ['scripts/bench/run.ts', ...args], { cwd: ROOT, timeout: 90_000 });
  return run.then(
    ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
    (error: { code: number; stdout: string; stderr: string }) => ({ code: error.code, stdout: error.stdout, stderr: error.stderr }),
  );
}

test('bench runner: a named bench runs, announces its start and end, and prints its table with after/before ratios', { timeout: 120_000 }, async () => {
  const { code, stdout, stderr } = await bench(['report', '--store', 'json', '--records=300', '--rounds', '1', '--before', ROOT]);
  expect(code, stderr).toBe(0);
  expect(stderr).toMatch(/\[bench 1\/1\] report --store json --records=300 --rounds 1 --before /);
  expect(stderr).toMatch(/\[bench 1\/1\] report: done in \d+ s/);
  expect(stdout).toMatch(/report \/ count time/);
  expect(stdout).toMatch(/^json +300 +after +[\d.]+/m);
  expect(stdout).toMatch(/^json +300 +before +[\d.]+/m);
});

test('bench runner: an unknown bench name -> exit 2 and the list of benches', async () => {
  const { code, stderr } = await bench(['nosuch']);
  expect(code).toBe(2);
  expect(stderr).toMatch(/no bench called nosuch/);
  for (const name of ['static', 'proxy', 'signups', 'stats', 'report', 'invite', 'clean']) expect(stderr).toContain(`  ${name} `);
});
