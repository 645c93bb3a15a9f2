/** The servers the front benchmark compares, each started on an ephemeral 127.0.0.1 port. */
import { execFileSync, fork, spawn, type ChildProcess } from 'node:child_process';
import { openSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import { mkdir, readFile, readdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { freePort, waitForPort } from './ports.ts';

export interface Running {
  name: string;
  url: string;
  pid: number;
  stop(): Promise<void>;
}

/**
 * CPU seconds (user + system) used so far by a process and its descendants, from /proc (Linux).
 * Unlike req/s, CPU per request hardly depends on what else the machine is doing.
 */
export async function cpuSeconds(pid: number): Promise<number> {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => '');
  // Fields after the parenthesised command name; utime and stime are fields 14 and 15.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  let ticks = Number(fields[11] ?? 0) + Number(fields[12] ?? 0);
  for (const task of await readdir(`/proc/${pid}/task`).catch(() => [])) {
    const children = (await readFile(`/proc/${pid}/task/${task}/children`, 'utf8').catch(() => '')).trim();
    for (const child of children ? children.split(' ') : []) ticks += (await cpuSeconds(Number(child))) * CLOCK_TICKS;
  }
  return ticks / CLOCK_TICKS;
}
/**
 * The machine's load average as the table is printed: on a shared machine, a run at a load far
 * above the core count inflates every CPU figure (Node's more than nginx's), so it says how much
 * to trust one.
 */
export function loadNote(): string {
  return `load average ${loadavg().map((n) => n.toFixed(1)).join(' / ')} on ${availableParallelism()} cores`;
}

/** USER_HZ: 100 on every Linux architecture Node runs on. */
const CLOCK_TICKS = 100;

/**
 * Spawns a Node entry that prints `listening on <url>` (on stdout or stderr). With `stdoutFile`,
 * its stdout goes to that file instead of a pipe, as a production log would (a request line per
 * request then costs the server a write to a file, and this process nothing).
 */
export async function nodeServer(name: string, entry: string, args: string[], env: NodeJS.ProcessEnv, stdoutFile?: string): Promise<Running> {
  const out = stdoutFile === undefined ? 'pipe' : openSync(stdoutFile, 'w');
  const child = spawn(process.execPath, [entry, ...args], { env, stdio: ['ignore', out, 'inherit'] });
  const url = await new Promise<string>((resolve, reject) => {
    let seen = '';
    // A text or JSON log line (LOG_FORMAT): `listening on http://…; site from …`.
    const look = (text: string) => {
      seen = text;
      const match = /listening on (https?:\/\/[^\s;"]+)/.exec(text);
      if (match) resolve(match[1]);
      return Boolean(match);
    };
    child.on('exit', (code) => reject(new Error(`${name} exited with code ${code}: ${seen}`)));
    if (child.stdout) {
      let text = '';
      child.stdout.on('data', (chunk) => look((text += chunk)));
      return;
    }
    const poll = setInterval(async () => {
      if (look(await readFile(stdoutFile!, 'utf8').catch(() => '')) || child.exitCode !== null) clearInterval(poll);
    }, 50);
  });
  child.stdout?.resume();
  return { name, url, pid: child.pid!, stop: () => stopChild(child) };
}

/** The API sidecar, which reports its URL over IPC once it listens. */
export async function sidecar(entry: string, env: NodeJS.ProcessEnv): Promise<Running> {
  const child = fork(entry, [], { env, stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
  const url = await new Promise<string>((resolve, reject) => {
    child.on('message', (m: { type?: string; url?: string }) => m?.type === 'ready' && m.url && resolve(m.url));
    child.on('exit', (code) => reject(new Error(`sidecar exited with code ${code}`)));
  });
  return { name: 'sidecar', url, pid: child.pid!, stop: () => stopChild(child) };
}

/**
 * Debian's nginx with a config from this folder (nginx.conf by default), as a foreground process
 * (not a service). `accessLog`: instead of `access_log off`, a line per request into a file
 * through a 64 KiB buffer, as a production nginx writes it.
 */
export async function nginx(prefix: string, values: Record<string, string>, confName = 'nginx.conf', name = 'nginx', accessLog = false): Promise<Running> {
  if (!hasCommand('nginx')) {
    console.error('nginx is missing: apt-get install -y nginx');
    execFileSync('apt-get', ['install', '-y', '-qq', 'nginx'], { stdio: 'inherit', env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
  }
  const port = await freePort();
  const template = await readFile(path.join(import.meta.dirname, confName), 'utf8');
  const all: Record<string, string> = { ...values, PREFIX: prefix, PORT: String(port), HERE: import.meta.dirname };
  let conf = template.replace(/\{\{(\w+)\}\}/g, (_, key: string) => all[key] ?? `{{${key}}}`);
  if (accessLog) conf = conf.replace('access_log off;', `access_log ${prefix}/access.log combined buffer=64k flush=1s;`);
  await mkdir(prefix, { recursive: true });
  const file = path.join(prefix, 'nginx.conf');
  await writeFile(file, conf);
  const child = spawn('nginx', ['-c', file, '-p', prefix], { stdio: ['ignore', 'inherit', 'inherit'] });
  await waitForPort(port, child);
  return { name, url: `http://127.0.0.1:${port}`, pid: child.pid!, stop: () => stopChild(child, 'SIGQUIT') };
}

function hasCommand(name: string): boolean {
  try {
    execFileSync('sh', ['-c', `command -v ${name}`], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

function stopChild(child: ChildProcess, signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill(signal);
  const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
  return exited.finally(() => clearTimeout(timer));
}
