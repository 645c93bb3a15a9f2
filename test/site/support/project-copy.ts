/**
 * A throw-away copy of the project (its build inputs, node_modules linked) to build variants of
 * the content in: a broken page, a new page. The real tree and its dist/ are never touched.
 */
import { spawn } from 'node:child_process';
import { cp, mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { stackEnv } from '../../support/stack.ts';

const ROOT = path.resolve(import.meta.dirname, '../../..');
const INPUTS = ['astro.config.mjs', 'site', 'content', 'api', 'scripts', 'tsconfig.json', 'package.json'];

export interface ProjectCopy {
  dir: string;
  dist: string;
  /** Adds or replaces a file, relative to the copy's root. */
  write(file: string, body: string): Promise<void>;
  /** `astro build` with the given settings; resolves with the exit code and all output. */
  build(settings: Record<string, string>): Promise<{ code: number | null; output: string }>;
  remove(): Promise<void>;
}

export async function copyProject(): Promise<ProjectCopy> {
  const dir = await mkdtemp(path.join(tmpdir(), 'site-copy-'));
  for (const entry of INPUTS) {
    if (existsSync(path.join(ROOT, entry))) await cp(path.join(ROOT, entry), path.join(dir, entry), { recursive: true });
  }
  await symlink(path.join(ROOT, 'node_modules'), path.join(dir, 'node_modules'), 'dir');
  return {
    dir,
    dist: path.join(dir, 'dist'),
    async write(file, body) {
      await mkdir(path.dirname(path.join(dir, file)), { recursive: true });
      await writeFile(path.join(dir, file), body);
    },
    build(settings) {
      const cli = path.join(dir, 'node_modules', 'astro', 'bin', 'astro.mjs');
      const env = stackEnv({ DIST_DIR: './dist', NO_COLOR: '1', FORCE_COLOR: '0', ...settings });
      const child = spawn(process.execPath, [cli, 'build'], { cwd: dir, env, stdio: ['ignore', 'pipe', 'pipe'] });
      let output = '';
      child.stdout.on('data', (chunk) => (output += chunk));
      child.stderr.on('data', (chunk) => (output += chunk));
      // eslint-disable-next-line no-control-regex
      return new Promise((resolve) => child.on('close', (code) => resolve({ code, output: output.replace(/\x1b\[[0-9;]*m/g, '') })));
    },
    remove: () => rm(dir, { recursive: true, force: true }),
  };
}
