/**
 * The type check of the whole project (`npm run typecheck`), as one of `npm test`'s files: it
 * runs beside the others, so a core is not left idle while it runs alone before them.
 * tsc keeps what it learnt in a build-info file between runs (incremental): a file is checked
 * again when it or anything it depends on changed, so the result is that of a full check, and a
 * run after a small edit skips the rest. One checker thread: the other files keep both cores busy,
 * and tsc's parallel checkers would each check the shared declarations again.
 */
import { execFile } from 'node:child_process';
import path from 'node:path';
import { expect, test } from 'vitest';
import { ROOT } from './support/stack.ts';

const BUILD_INFO = path.join(ROOT, 'node_modules', '.cache', 'typecheck', 'tsbuildinfo');

test('typecheck: tsc -p . finds no type error', { timeout: 180_000 }, async () => {
  const tsc = path.join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
  const args = [tsc, '-p', '.', '--pretty', 'false', '--incremental', '--tsBuildInfoFile', BUILD_INFO, '--singleThreaded'];
  const { code, output } = await new Promise<{ code: number | null; output: string }>((resolve) => {
    execFile(process.execPath, args, { cwd: ROOT, maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) =>
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, output: `${stdout}${stderr}` }),
    );
  });
  expect(`exit ${code}\n${output}`).toBe('exit 0\n');
});
