/**
 * The real stack for end-to-end and browser tests: `scripts/start.ts` (front in-process, sidecar
 * as its child) on 127.0.0.1, with a temp DATA_DIR and a site built for its own base URL.
 * The run's global setup starts one on demand and hands it out: `inject('stack')`. Tests that need
 * a stack of their own (crashes, restarts, other settings) call `startStack()`.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ConfigSchema, loadConfig } from '../../api/config.ts';
import { buildSite, staleReason, stampPath } from '../../api/start/site-build.ts';
import { freePort } from '../../scripts/ports.ts';

export interface StackInfo {
  /** e.g. http://127.0.0.1:41234, no trailing slash; every absolute URL in the site uses it. */
  baseUrl: string;
  dataDir: string;
  distDir: string;
}

declare module 'vitest' {
  export interface ProvidedContext {
    stack: StackInfo;
  }
}

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/**
 * Time budget of a test that starts its own stack (start-up, the test, stop): on a busy 2-core
 * machine a start alone can take several seconds.
 */
export const OWN_STACK_TIMEOUT_MS = 90_000;

/** Generous rate limits and connection cap, so tests are not throttled unless they ask to be. */
const RELAXED_LIMITS = { RATE_LIMIT_STANDARD: '100000', RATE_LIMIT_RELAXED: '100000', MAX_CONNECTIONS_PER_CLIENT: '100000' };

/**
 * The environment of a stack: the caller's, minus every project setting and what vitest adds
 * (it exports Vite's BASE_URL=/ and NODE_ENV=test), plus the given settings.
 */
export function stackEnv(settings: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const key of Object.keys(env)) {
    if (key in ConfigSchema.shape || /^(VITEST|VITE_)/.test(key) || ['MODE', 'DEV', 'PROD', 'SSR', 'NODE_ENV'].includes(key)) delete env[key];
  }
  return { ...env, ASTRO_TELEMETRY_DISABLED: '1', ...settings };
}

/** A port that was free a moment ago (the site must know its URL before the server starts). */
export { freePort };

/** Builds the site into distDir for baseUrl (output shown only on failure). */
export async function buildSiteFor(distDir: string, baseUrl: string): Promise<void> {
  const env = stackEnv({ BASE_URL: baseUrl, DIST_DIR: distDir });
  const config = loadConfig(env);
  if (await staleReason(ROOT, config)) await buildSite(ROOT, config, env, { quiet: true });
}

/** Drops the build record of a temp dist/ that is going away. */
export function forgetBuild(distDir: string): Promise<void> {
  return rm(stampPath(ROOT, distDir), { force: true });
}

export interface StartStackOptions {
  /** A site already built (buildSiteFor) with `baseUrl`; by default one is built into a temp dir. */
  distDir?: string;
  /** The BASE_URL the site was built with; defaults to this stack's own URL. */
  baseUrl?: string;
  port?: number;
  /** Defaults to a fresh temp dir, removed by stop(). */
  dataDir?: string;
  /** Further settings, e.g. { RATE_LIMIT_STANDARD: '2' } or { TRUST_PROXY: '127.0.0.1' }. */
  env?: Record<string, string>;
  /** How long start-up (including a build) may take. */
  timeoutMs?: number;
}

export interface RunningStack extends StackInfo {
  /** Where this stack listens (differs from baseUrl when the site was built for another stack). */
  url: string;
  process: ChildProcess;
  /** Everything the stack printed so far (stdout and stderr). */
  output(): string;
  /** The sidecar child's pid, read from /proc (Linux). */
  sidecarPid(): Promise<number | undefined>;
  /** SIGTERM (or the given signal), wait for the exit, remove the temp dirs this call made. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

export async function startStack(options: StartStackOptions = {}): Promise<RunningStack> {
  const port = options.port ?? (await freePort());
  const url = `http://127.0.0.1:${port}`;
  const baseUrl = options.baseUrl ?? url;
  const madeDirs: string[] = [];
  const temp = async (prefix: string) => {
    const dir = await mkdtemp(path.join(tmpdir(), prefix));
    madeDirs.push(dir);
    return dir;
  };
  const distDir = options.distDir ?? (await temp('stack-dist-'));
  const dataDir = options.dataDir ?? (await temp('stack-data-'));
  const env = stackEnv({
    ...RELAXED_LIMITS,
    BASE_URL: baseUrl,
    HOST: '127.0.0.1',
    PORT: String(port),
    SIDECAR_HOST: '127.0.0.1',
    SIDECAR_PORT: '0',
    DATA_DIR: dataDir,
    DIST_DIR: distDir,
    LOG_REQUESTS: 'false',
    ...options.env,
  });
  const child = spawn(process.execPath, [path.join(ROOT, 'scripts', 'start.ts')], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));

  const cleanup = () => Promise.all(madeDirs.flatMap((dir) => [rm(dir, { recursive: true, force: true }), forgetBuild(dir)]));
  const ready = await new Promise<boolean>((resolve) => {
    const timer = setTimeout(() => resolve(false), options.timeoutMs ?? 120_000);
    const check = () => {
      // The front's start-up line, as text or as a JSON log line (LOG_FORMAT).
      if (/^listening on |"msg":"listening on /m.test(output)) {
        clearTimeout(timer);
        resolve(true);
      }
    };
    child.stdout.on('data', check);
    void exited.then(() => (clearTimeout(timer), resolve(false)));
  });
  if (!ready) {
    child.kill('SIGKILL');
    await exited;
    await cleanup();
    throw new Error(`the stack did not start:\n${output}`);
  }

  return {
    url,
    baseUrl,
    dataDir,
    distDir,
    process: child,
    output: () => output,
    sidecarPid: () => childPid(child.pid!),
    async stop(signal = 'SIGTERM') {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      const code = await exited;
      await cleanup();
      return code;
    },
  };
}

/**
 * Several stacks started together. When one fails to start, the ones that did start are stopped
 * before the error is thrown: a file's afterAll never learns of them, and they would outlive the run.
 */
export async function startStacks(all: readonly StartStackOptions[]): Promise<RunningStack[]> {
  const started = await Promise.allSettled(all.map((options) => startStack(options)));
  const failed = started.find((result) => result.status === 'rejected');
  if (!failed) return started.map((result) => (result as PromiseFulfilledResult<RunningStack>).value);
  await Promise.all(started.map((result) => (result.status === 'fulfilled' ? result.value.stop() : undefined)));
  throw failed.reason;
}

async function childPid(pid: number): Promise<number | undefined> {
  return (await childPids(pid))[0];
}

/** Direct children of a process (Linux /proc). */
export async function childPids(pid: number): Promise<number[]> {
  const { readFile, readdir } = await import('node:fs/promises');
  const pids: number[] = [];
  for (const task of await readdir(`/proc/${pid}/task`).catch(() => [])) {
    const list = (await readFile(`/proc/${pid}/task/${task}/children`, 'utf8').catch(() => '')).trim();
    if (list) pids.push(...list.split(/\s+/).map(Number));
  }
  return pids;
}
