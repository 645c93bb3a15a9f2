/**
 * `npm run bench` (front part): the same dist/ served by the front, by nginx (Debian's package,
 * scripts/bench/nginx.conf) and by a naive read-from-disk-per-request Node server, loaded with
 * autocannon (32 kept-alive connections, a fixed duration per run) on `/`, `/thanks/` and its twin.
 * Then the status probe through the front against the sidecar directly. Prints req/s, p99 and
 * ratios; targets: front >= 0.4x nginx, >= 2x naive; the front adds <= 30 % to the probe's latency.
 * Everything runs on 127.0.0.1 ephemeral ports and is stopped at the end. `--duration=N` seconds.
 */
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import autocannon, { type Result } from 'autocannon';
import { configOrExit } from '../../api/config.ts';
import { API_PATHS, PAGE_PATHS, THANKS_PATHS, twinPath } from '../../api/contract/index.ts';
import { buildSite, staleReason } from '../../api/front/site-build.ts';
import { cpuSeconds, nginx, nodeServer, sidecar, type Running } from './servers.ts';

const root = path.resolve(import.meta.dirname, '..', '..');
const duration = Number(process.argv.find((a) => a.startsWith('--duration='))?.split('=')[1] ?? 5);
const CONNECTIONS = 32;
const PATHS = [PAGE_PATHS.home.en, THANKS_PATHS.en, twinPath(THANKS_PATHS.en)];
const config = configOrExit();
const dist = path.resolve(root, config.DIST_DIR);

const reason = await staleReason(root, config);
if (reason) {
  console.error(`building the site: ${reason}`);
  await buildSite(root, config, process.env);
}

const tmp = await mkdtemp(path.join(tmpdir(), 'bench-front-'));
const running: Running[] = [];
/** In reverse order of start: the front goes before the sidecar it proxies to. */
async function stopAll(): Promise<void> {
  for (const server of running.splice(0).reverse()) await server.stop();
  await rm(tmp, { recursive: true, force: true });
}
// Bounded: whatever happens, everything started here is stopped.
const guard = setTimeout(async () => {
  console.error('benchmark overran its time budget; stopping');
  await stopAll();
  process.exit(1);
}, (duration * 20 + 120) * 1000);
process.once('SIGINT', async () => (await stopAll(), process.exit(130)));

const env: NodeJS.ProcessEnv = {
  ...process.env,
  LOG_REQUESTS: 'false',
  DATA_DIR: path.join(tmp, 'data'),
  // The probe comparison measures proxying, not the rate limiter's 429s.
  RATE_LIMIT_STANDARD: '1000000000',
  RATE_LIMIT_RELAXED: '1000000000',
};

try {
  const api = existsSync(path.join(root, 'api/sidecar/main.ts')) ? await sidecar(path.join(root, 'api/sidecar/main.ts'), { ...env, SIDECAR_PORT: '0' }) : undefined;
  if (api) running.push(api);
  const apiUrl = api ? new URL(api.url) : new URL(`http://${config.SIDECAR_HOST}:${config.SIDECAR_PORT}`);
  const front = await nodeServer('front', path.join(root, 'api/front/main.ts'), [], { ...env, PORT: '0', HOST: '127.0.0.1', SIDECAR_HOST: apiUrl.hostname, SIDECAR_PORT: apiUrl.port });
  running.push(front);
  const ngx = await nginx(path.join(tmp, 'nginx'), { DIST: dist, BASE_URL: config.BASE_URL, SIDECAR: apiUrl.host });
  running.push(ngx);
  const naive = await nodeServer('naive', path.join(import.meta.dirname, 'naive-server.ts'), [dist], env);
  running.push(naive);

  const servers = [front, ngx, naive];
  await sameBodies(servers);
  const rows: string[][] = [];
  for (const target of PATHS) {
    const results = new Map<string, Measured>();
    for (const server of servers) results.set(server.name, await load(server.url + target, CONNECTIONS, [server.pid]));
    const ours = results.get('front')!;
    for (const server of servers) {
      const r = results.get(server.name)!;
      const ratio = server === front ? '' : `${(ours.requests.average / r.requests.average).toFixed(2)}x`;
      const cpuRatio = server === front ? '' : `${(r.cpuMicros / ours.cpuMicros).toFixed(2)}x`;
      rows.push([target, server.name, fmt(r.requests.average), String(r.latency.p99), ratio, r.cpuMicros.toFixed(0), cpuRatio, problems(r)]);
    }
  }
  console.log(`\nStatic files, ${CONNECTIONS} connections, ${duration} s each; targets: front >= 0.4x nginx and >= 2x naive in req/s`);
  console.log('(front/other: req/s ratio; cpu µs/req: server CPU per request, robust on a busy machine; other/front: its inverse ratio)');
  table(['path', 'server', 'req/s', 'p99 ms', 'front/other', 'cpu µs/req', 'other/front', 'errors'], rows);

  if (api) {
    const probeRows: string[][] = [];
    for (const connections of [1, CONNECTIONS]) {
      const direct = await load(api.url + API_PATHS.status, connections, [api.pid]);
      const proxied = await load(front.url + API_PATHS.status, connections, [front.pid, api.pid]);
      for (const [name, r] of [['sidecar', direct], ['front -> sidecar', proxied]] as const) {
        probeRows.push([String(connections), name, fmt(r.requests.average), r.latency.average.toFixed(2), String(r.latency.p99), r.cpuMicros.toFixed(0), problems(r)]);
      }
      const added = (proxied.latency.average / direct.latency.average - 1) * 100;
      probeRows.push(['', 'added by the front', '', `${added.toFixed(0)} %`, '', `${(proxied.cpuMicros - direct.cpuMicros).toFixed(0)}`, '']);
    }
    console.log(`\nStatus probe ${API_PATHS.status}, ${duration} s each; target: the front adds <= 30 % latency`);
    console.log('(cpu µs/req: front and sidecar together)');
    table(['conns', 'path', 'req/s', 'mean ms', 'p99 ms', 'cpu µs/req', 'errors'], probeRows);
  } else console.log('\n(no sidecar yet: status probe comparison skipped)');
} finally {
  clearTimeout(guard);
  await stopAll();
}

type Measured = Result & { cpuMicros: number };

/** One run after a one-second warm-up (JIT, kept-alive sockets), with the servers' CPU per request. */
async function load(url: string, connections: number, pids: number[]): Promise<Measured> {
  await autocannon({ url, connections, duration: 1 });
  const cpu = async () => (await Promise.all(pids.map(cpuSeconds))).reduce((a, b) => a + b, 0);
  const before = await cpu();
  const result = await autocannon({ url, connections, duration });
  const used = (await cpu()) - before;
  return { ...result, cpuMicros: (used * 1e6) / Math.max(1, result.requests.total) };
}

/** The comparison is fair only if every server sends the same bytes for the same path. */
async function sameBodies(servers: Running[]): Promise<void> {
  for (const target of PATHS) {
    const sizes = await Promise.all(servers.map(async (s) => {
      const res = await fetch(s.url + target, { headers: { 'accept-encoding': 'identity' } });
      if (res.status !== 200) throw new Error(`${s.name} answered ${res.status} for ${target}`);
      return (await res.arrayBuffer()).byteLength;
    }));
    if (new Set(sizes).size !== 1) throw new Error(`different bodies for ${target}: ${sizes.join(', ')} bytes`);
  }
}

function problems(r: Result): string {
  const bad = r.errors + r.timeouts + r.non2xx;
  return bad ? `${bad} (${r.non2xx} non-2xx)` : '0';
}

function fmt(n: number): string {
  return Math.round(n).toLocaleString('en-US');
}

function table(head: string[], rows: string[][]): void {
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (cells: string[]) => cells.map((c, i) => (i < 2 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ');
  console.log(line(head));
  console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const row of rows) console.log(line(row));
}
