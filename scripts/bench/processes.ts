/**
 * The processes a bench measures, each reached only through its public entry point: the product
 * as `npm start` runs it (scripts/start.ts: the front, with the sidecar as its child), the
 * operator commands (`npm run waitlist`, `npm run clients`) and nginx. Everything listens on
 * 127.0.0.1 and is stopped by the PID this process holds.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { openSync } from 'node:fs';
import { mkdir, readFile, readdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { text } from 'node:stream/consumers';
import { API_PATHS } from '../../api/contract/index.ts';
import { freePort, waitForPort } from '../ports.ts';
import type { Checkout } from './options.ts';

/** The site's base URL in every bench: the product's and nginx's Link headers name the same origin. */
const BASE_URL = 'http://localhost:4321';

/**
 * The product's environment: only the settings given, so that a DATABASE_URL or a PORT of the
 * shell running the bench never reaches it. Limits high enough that a bench measures work, not 429s.
 */
export function productEnv(settings: Record<string, string>): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    ASTRO_TELEMETRY_DISABLED: '1',
    BASE_URL,
    LOG_FORMAT: 'json',
    RATE_LIMIT_STANDARD: '1000000000',
    RATE_LIMIT_RELAXED: '1000000000',
    ...settings,
  };
}

/**
 * `npm start` of a checkout with its data in `dataDir`; it builds that checkout's site first when
 * stale. Ready once the API status answers 200 through the front. Its output goes to a log file
 * in `dataDir`'s parent.
 */
export async function startProduct(checkout: Checkout, dataDir: string, settings: Record<string, string> = {}) {
  const port = await freePort();
  await mkdir(dataDir, { recursive: true });
  const log = openSync(`${dataDir}.log`, 'w');
  const env = productEnv({ HOST: '127.0.0.1', PORT: String(port), DATA_DIR: dataDir, ...settings });
  const child = spawn(process.execPath, ['scripts/start.ts'], { cwd: checkout.root, env, stdio: ['ignore', log, log] });
  const url = `http://127.0.0.1:${port}`;
  // The site build may come first: minutes, not seconds.
  while ((await fetch(url + API_PATHS.status).then((res) => res.status, () => 0)) !== 200) {
    if (child.exitCode !== null) throw new Error(`npm start exited with ${child.exitCode}:\n${(await readFile(`${dataDir}.log`, 'utf8')).slice(-2000)}`);
    await new Promise((done) => setTimeout(done, 200));
  }
  // socketPath: the sidecar's (docs/configuration.md, SIDECAR_LISTEN=socket), the API without the front.
  return { name: `front (${checkout.label})`, url, pid: child.pid!, socketPath: path.join(dataDir, 'sidecar.sock'), stop: () => stop(child) };
}

export type Product = Awaited<ReturnType<typeof startProduct>>;

export function stop(child: ChildProcess, signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  child.kill(signal);
  const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
  return exited.finally(() => clearTimeout(timer));
}

/**
 * Preloaded into an operator command: its peak memory (Node's documented resourceUsage) as the
 * last line of its stderr, whichever way it exits. Pipes are written synchronously on Linux.
 */
const PEAK_REPORTER = `data:text/javascript,process.on('exit', () => process.stderr.write('bench-peak-kib ' + process.resourceUsage().maxRSS + '\\n'))`;

/** An operator command of a checkout (`scripts/waitlist.ts`, `scripts/clients.ts`): its output, wall time and peak memory. */
export async function command(checkout: Checkout, script: string, args: string[], env: NodeJS.ProcessEnv) {
  const started = performance.now();
  const child = spawn(process.execPath, ['--import', PEAK_REPORTER, script, ...args], { cwd: checkout.root, env, stdio: ['ignore', 'pipe', 'pipe'] });
  const [stdout, stderr, [code]] = await Promise.all([text(child.stdout), text(child.stderr), once(child, 'close')]);
  const kib = Number(/bench-peak-kib (\d+)\s*$/.exec(stderr)?.[1]);
  const seconds = (performance.now() - started) / 1000;
  return { code: (code as number | null) ?? 1, stdout, stderr: stderr.replace(/bench-peak-kib .*\s*$/, ''), seconds, peakMb: kib / 1024 };
}

export type CommandRun = Awaited<ReturnType<typeof command>>;

export async function mustRun(checkout: Checkout, script: string, args: string[], env: NodeJS.ProcessEnv): Promise<CommandRun> {
  const run = await command(checkout, script, args, env);
  if (run.code !== 0) throw new Error(`${script} ${args.join(' ')} (${checkout.label}) exited with ${run.code}:\n${run.stderr}`);
  return run;
}

/**
 * CPU seconds (user + system) used so far by a process and its descendants, from /proc (Linux):
 * per request, it hardly depends on what else the machine is doing, unlike requests per second.
 */
export async function cpuSeconds(pid: number): Promise<number> {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => '');
  // utime and stime are fields 14 and 15; the command name before them is in parentheses.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  let seconds = (Number(fields[11] ?? 0) + Number(fields[12] ?? 0)) / CLOCK_TICKS;
  for (const task of await readdir(`/proc/${pid}/task`).catch(() => [])) {
    const children = (await readFile(`/proc/${pid}/task/${task}/children`, 'utf8').catch(() => '')).trim();
    for (const child of children ? children.split(' ') : []) seconds += await cpuSeconds(Number(child));
  }
  return seconds;
}

/** USER_HZ: 100 on every Linux architecture Node runs on. */
const CLOCK_TICKS = 100;

/**
 * Debian's nginx in the foreground with nginx.conf of this folder (the configuration
 * docs/static-hosting.md publishes), writing a buffered access log as a production nginx does.
 */
export async function nginx(prefix: string, dist: string) {
  const port = await freePort();
  const values: Record<string, string> = {
    PREFIX: prefix,
    PORT: String(port),
    HERE: import.meta.dirname,
    DIST: dist,
    BASE_URL,
    // Only static files are asked of it here; the upstream is never reached.
    SIDECAR: '127.0.0.1:9',
  };
  const template = await readFile(path.join(import.meta.dirname, 'nginx.conf'), 'utf8');
  const conf = template
    .replace(/\{\{(\w+)\}\}/g, (_, key: string) => values[key])
    .replace('access_log off;', `access_log ${prefix}/access.log combined buffer=64k flush=1s;`);
  await mkdir(prefix, { recursive: true });
  await writeFile(path.join(prefix, 'nginx.conf'), conf);
  const child = spawn('/usr/sbin/nginx', ['-c', path.join(prefix, 'nginx.conf'), '-p', prefix], { stdio: ['ignore', 'inherit', 'inherit'] });
  await waitForPort(port, child);
  return { name: 'nginx', url: `http://127.0.0.1:${port}`, pid: child.pid!, stop: () => stop(child, 'SIGQUIT') };
}
