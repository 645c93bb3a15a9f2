import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, expect, test, vi } from 'vitest';
import { during, numberOption } from '../../scripts/bench/progress.ts';
import { BENCHES, runAll, selected } from '../../scripts/bench/run.ts';

const dirs: string[] = [];
afterEach(async () => {
  vi.useRealTimers();
  vi.restoreAllMocks();
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});

/** Bench stand-ins that record the arguments they got (and may fail). */
async function fakeBenches(codes: number[]): Promise<{ files: string[]; argsOf: (i: number) => Promise<string[]> }> {
  const dir = await mkdtemp(path.join(tmpdir(), 'bench-runner-'));
  dirs.push(dir);
  const files = await Promise.all(codes.map(async (code, i) => {
    const file = path.join(dir, `bench-${i}.mjs`);
    await writeFile(file, `import { writeFileSync } from 'node:fs';\nwriteFileSync(${JSON.stringify(`${file}.args`)}, JSON.stringify(process.argv.slice(2)));\nprocess.exit(${code});\n`);
    return file;
  }));
  const { readFile } = await import('node:fs/promises');
  return { files, argsOf: async (i) => JSON.parse(await readFile(`${files[i]}.args`, 'utf8')) as string[] };
}

test('bench runner: every script gets the same arguments (both --x=N and --x N), each start and end is announced', async () => {
  const { files, argsOf } = await fakeBenches([0, 0, 0]);
  const lines: string[] = [];
  const args = ['--duration=2', '--rounds', '1'];
  expect(await runAll(files, args, (line) => lines.push(line))).toBe(0);
  for (let i = 0; i < files.length; i++) expect(await argsOf(i)).toEqual(args);
  expect(lines.filter((l) => /^\n?\[bench \d\/3\] .*--duration=2 --rounds 1$/.test(l))).toHaveLength(3);
  expect(lines.filter((l) => /\[bench \d\/3\] .*: done in \d+ s/.test(l))).toHaveLength(3);
});

test('bench runner: a failing script is reported, the next ones still run, the run exits 1', async () => {
  const { files, argsOf } = await fakeBenches([0, 3, 0]);
  const lines: string[] = [];
  expect(await runAll(files, ['--duration=1'], (line) => lines.push(line))).toBe(1);
  expect(await argsOf(2)).toEqual(['--duration=1']);
  expect(lines.join('\n')).toMatch(/bench-1\.mjs: FAILED \(exit 3\)/);
  expect(lines.at(-1)).toMatch(/2 of 3 benchmarks finished .*failed: .*bench-1\.mjs/);
});

test('bench runner: the list names files that exist in scripts/bench', async () => {
  const here = await readdir(path.join(import.meta.dirname, '../../scripts/bench'));
  for (const file of BENCHES) expect(here).toContain(file);
});

test('bench runner: a benchmark named on the command line runs alone and the options pass on; no name runs them all', () => {
  expect(selected(['signup-peers', '--duration=3'])).toEqual({ files: ['signup-peers.ts'], rest: ['--duration=3'] });
  expect(selected(['--rounds', '1'])).toEqual({ files: [...BENCHES], rest: ['--rounds', '1'] });
});

test('bench progress: a long phase prints a line at least every 5 s until it ends', async () => {
  vi.useFakeTimers();
  const lines: string[] = [];
  vi.spyOn(console, 'error').mockImplementation((line: string) => void lines.push(line));
  let finish!: () => void;
  const phase = during('loading', new Promise<void>((resolve) => (finish = resolve)));
  expect(lines).toHaveLength(1);
  await vi.advanceTimersByTimeAsync(12_000);
  expect(lines.length).toBeGreaterThanOrEqual(3);
  finish();
  await phase;
  const count = lines.length;
  await vi.advanceTimersByTimeAsync(20_000);
  expect(lines).toHaveLength(count);
});

test('bench options: --duration 7 and --duration=7 read alike; absent -> the default', () => {
  expect(numberOption('duration', 5, ['--duration', '7'])).toBe(7);
  expect(numberOption('duration', 5, ['--duration=7', '--sizes=1,2'])).toBe(7);
  expect(numberOption('duration', 5, ['--rounds=2'])).toBe(5);
});
