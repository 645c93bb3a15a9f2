/**
 * `npm start` builds the site only when needed (docs/front.md, "`npm start`"). The last build is
 * recorded in a stamp outside dist/, so a half-written dist/ from a failed build is never trusted.
 */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdir, readFile, readdir, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Config } from '../config.ts';
import { writeCodings } from '../front/codings.ts';

/** Files and folders whose change changes the build (relative to the project root). */
export const BUILD_INPUTS = ['content', 'site', 'public', 'api/contract', 'api/docs', 'astro.config.mjs', 'package-lock.json'];

/** Settings the build bakes into dist/ (absolute URLs, security.txt). */
const BUILD_SETTINGS = ['BASE_URL', 'SECURITY_CONTACT', 'CONTENT_SIGNALS'] as const satisfies readonly (keyof Config)[];

/** `startedAt`: when the last successful build started (ms since epoch); later edits make it stale. */
type Stamp = { settings: Record<string, string>; startedAt: number };

export function stampPath(root: string, distDir: string): string {
  const key = createHash('sha256').update(path.resolve(root, distDir)).digest('hex').slice(0, 16);
  return path.join(root, 'node_modules', '.cache', 'site-build', `${key}.json`);
}

/** Why the site must be built, or undefined when dist/ is current. */
export async function staleReason(root: string, config: Config): Promise<string | undefined> {
  const distDir = path.resolve(root, config.DIST_DIR);
  if (!(await stat(path.join(distDir, 'index.html')).catch(() => undefined))) return `${config.DIST_DIR} has no build`;
  let stamp: Stamp;
  try {
    stamp = JSON.parse(await readFile(stampPath(root, config.DIST_DIR), 'utf8')) as Stamp;
  } catch {
    return 'no record of the last build';
  }
  for (const name of BUILD_SETTINGS) {
    if (stamp.settings?.[name] !== String(config[name])) return `${name} differs from the last build`;
  }
  const newest = await newestInput(root);
  if (newest.mtimeMs > stamp.startedAt) return `${newest.file} changed since the last build`;
  return undefined;
}

/**
 * Runs `astro build` into DIST_DIR with the same environment, writes the compressed copies
 * (codings.ts), then records the stamp. `quiet` shows the build's output only in its error
 * (tests); aborting `signal` stops the build (SIGTERM) and rejects.
 */
export async function buildSite(root: string, config: Config, env: NodeJS.ProcessEnv, { quiet = false, signal }: { quiet?: boolean; signal?: AbortSignal } = {}): Promise<void> {
  const startedAt = Date.now();
  const distDir = path.resolve(root, config.DIST_DIR);
  // The astro bin's shebang would pick the machine's Node from PATH; run it with this Node instead.
  const cli = path.join(root, 'node_modules', 'astro', 'bin', 'astro.mjs');
  // Astro writes its prerender chunks to `.prerender/` inside outDir when outDir lies within the
  // working directory, else to `<cwd>/.astro/`: from the project root, two builds at once (tests,
  // benches) would overwrite each other's chunks there. A working directory of its own per DIST_DIR,
  // inside the project so that the chunks still find node_modules, keeps them apart.
  const workDir = path.join(root, '.astro', 'builds', createHash('sha256').update(distDir).digest('hex').slice(0, 12));
  await mkdir(workDir, { recursive: true });
  const child = spawn(process.execPath, [cli, 'build', '--root', root, '--outDir', distDir], {
    cwd: workDir,
    env: { ASTRO_TELEMETRY_DISABLED: '1', ...env },
    stdio: quiet ? ['ignore', 'pipe', 'pipe'] : ['ignore', 'inherit', 'inherit'],
    signal,
  });
  child.on('error', () => {}); // an abort is reported through the exit code below
  let output = '';
  // Decoded as a stream: a character split between two chunks stays one character.
  child.stdout?.setEncoding('utf8').on('data', (chunk) => (output += chunk));
  child.stderr?.setEncoding('utf8').on('data', (chunk) => (output += chunk));
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  await rm(workDir, { recursive: true, force: true });
  if (code !== 0) throw new Error(`astro build failed (exit ${code})${quiet ? `:\n${output}` : ''}`);
  await writeCodings(distDir);
  await writeStamp(root, config, startedAt);
}

/** Records a successful build of DIST_DIR that started at `startedAt`. */
export async function writeStamp(root: string, config: Config, startedAt: number): Promise<void> {
  const stamp: Stamp = {
    settings: Object.fromEntries(BUILD_SETTINGS.map((name) => [name, String(config[name])])),
    startedAt,
  };
  const file = stampPath(root, config.DIST_DIR);
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, `${JSON.stringify(stamp, null, 2)}\n`);
}

/** The build input changed last (a file under one of BUILD_INPUTS). */
async function newestInput(root: string): Promise<{ file: string; mtimeMs: number }> {
  let newest = { file: '', mtimeMs: 0 };
  for (const input of BUILD_INPUTS) {
    const full = path.join(root, input);
    // A folder's entries, or the input itself when it is a file (or missing: stat skips it).
    const files = await readdir(full, { recursive: true }).then((names) => names.map((name) => path.join(full, name)), () => [full]);
    for (const file of files) {
      const info = await stat(file).catch(() => undefined);
      if (info?.isFile() && info.mtimeMs > newest.mtimeMs) newest = { file: path.relative(root, file), mtimeMs: info.mtimeMs };
    }
  }
  return newest;
}
