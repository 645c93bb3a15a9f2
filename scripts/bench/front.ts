/**
 * `npm run bench` (front part): the same dist/ served by the front (writing its request line to a
 * file), by the floor (floor-server.ts: node:http answering the same bytes from memory, nothing
 * else), by nginx (Debian's package, scripts/bench/nginx.conf) without and with a buffered access
 * log, and by a naive read-from-disk-per-request Node server, loaded with autocannon (32 kept-alive
 * connections, a fixed duration per run) on `/`, `/thanks/` and its twin. Prints req/s, p99, CPU
 * per request and the front's ratios to each; targets: front CPU per request <= nginx with its
 * access log, <= 1.2x the floor. Then the status probe straight to the sidecar and through the
 * proxies (scripts/bench/probe.ts). Everything runs on 127.0.0.1 ephemeral ports and is stopped at
 * the end. `--duration=N` seconds per run, `--rounds=N` interleaved rounds (median shown) for both
 * parts, `--static-only`, `--probe-only`.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { configOrExit } from '../../api/config.ts';
import { PAGE_PATHS, THANKS_PATHS, twinPath } from '../../api/contract/index.ts';
import { buildSite, staleReason } from '../../api/start/site-build.ts';
import { measure, median, type Measured } from './latency.ts';
import { benchEnv, probeBench } from './probe.ts';
import { during, numberOption } from './progress.ts';
import { loadNote, nginx, nodeServer, type Running } from './servers.ts';
import { table } from './table.ts';

const USAGE = `usage: node scripts/bench/front.ts [--duration=N] [--rounds=N] [--static-only | --probe-only]
Static files: front (request line to a file), node:http floor, nginx without and with access log,
naive server; then the status probe through the proxies (scripts/bench/probe.ts). DIST_DIR is
built first when stale.`;
if (process.argv.includes('--help') || process.argv.includes('-h')) {
  console.log(USAGE);
  process.exit(0);
}
const staticOnly = process.argv.includes('--static-only');
const probeOnly = process.argv.includes('--probe-only');
const root = path.resolve(import.meta.dirname, '..', '..');
const duration = numberOption('duration', 5);
const rounds = numberOption('rounds', 3);
const CONNECTIONS = 32;
const PATHS = [PAGE_PATHS.home.en, THANKS_PATHS.en, twinPath(THANKS_PATHS.en)];
const config = configOrExit();
const dist = path.resolve(root, config.DIST_DIR);

const reason = await staleReason(root, config);
if (reason) {
  await during(`building the site: ${reason}`, buildSite(root, config, process.env));
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
}, ((duration + 1) * rounds * 35 + 180) * 1000);
process.once('SIGINT', async () => (await stopAll(), process.exit(130)));

const env: NodeJS.ProcessEnv = { ...benchEnv(), DATA_DIR: path.join(tmp, 'data') };

try {
  if (!probeOnly) await staticBench();
  if (!staticOnly) await probeBench({ duration, rounds, env });
} finally {
  clearTimeout(guard);
  await stopAll();
}

/** The static comparison; the servers stop at its end, so the probe has the machine to itself. */
async function staticBench(): Promise<void> {
  // No sidecar is needed here (the probe starts its own).
  const servers = await during('starting the front, the floor, nginx (twice) and the naive server', async () => {
    const apiUrl = new URL(`http://${config.SIDECAR_HOST}:${config.SIDECAR_PORT}`);
    // The front keeps its request line (JSON, as in production), into a file like nginx's log.
    const frontEnv = { ...env, LOG_REQUESTS: 'true', LOG_FORMAT: 'json', PORT: '0', HOST: '127.0.0.1', SIDECAR_HOST: apiUrl.hostname, SIDECAR_PORT: apiUrl.port };
    const started: Running[] = [];
    const add = async (server: Promise<Running>) => (started.push(await server), running.push(started.at(-1)!));
    await add(nodeServer('front', path.join(root, 'api/front/main.ts'), [], frontEnv, path.join(tmp, 'front.log')));
    await add(nodeServer('node floor', path.join(import.meta.dirname, 'floor-server.ts'), [dist], env));
    await add(nginx(path.join(tmp, 'nginx'), { DIST: dist, BASE_URL: config.BASE_URL, SIDECAR: apiUrl.host }));
    await add(nginx(path.join(tmp, 'nginx-log'), { DIST: dist, BASE_URL: config.BASE_URL, SIDECAR: apiUrl.host }, 'nginx.conf', 'nginx + log', true));
    await add(nodeServer('naive', path.join(import.meta.dirname, 'naive-server.ts'), [dist], env));
    return started;
  });
  const [front] = servers;
  await sameBodies(servers);
  const rows: string[][] = [];
  for (const target of PATHS) {
    const runs = new Map<string, Measured[]>(servers.map((server) => [server.name, []]));
    for (let round = 0; round < rounds; round++) {
      // Interleaved rounds, the order alternating: a busy moment of the machine hits every server.
      for (const server of round % 2 ? [...servers].reverse() : servers) {
        const label = `static ${target}, round ${round + 1}/${rounds}: ${server.name}, 1 s warm-up + ${duration} s`;
        runs.get(server.name)!.push(await during(label, measure(server.url + target, CONNECTIONS, duration, [server.pid])));
      }
    }
    const ours = median(runs.get(front.name)!);
    for (const server of servers) {
      const r = median(runs.get(server.name)!);
      const other = server !== front;
      rows.push([
        target, server.name, fmt(r.requestsPerSecond), r.p99.toFixed(1), r.cpuMicros[0].toFixed(0),
        other ? `${(ours.requestsPerSecond / r.requestsPerSecond).toFixed(2)}x` : '',
        other ? `${(ours.cpuMicros[0] / r.cpuMicros[0]).toFixed(2)}x` : '',
        String(r.failed),
      ]);
    }
  }
  console.log(`\nStatic files, ${CONNECTIONS} connections, ${duration} s per run, median of ${rounds} interleaved rounds; ${loadNote()}`);
  console.log('targets: front cpu/req <= 1.0x "nginx + log" (both write a line per request) and <= 1.2x "node floor"');
  console.log('(cpu µs/req: the server\'s CPU per request, robust on a busy machine; front/other: the front\'s figure over the other\'s)');
  table(['path', 'server', 'req/s', 'p99 ms', 'cpu µs/req', 'front/other req/s', 'front/other cpu', 'errors'], rows);
  for (const server of running.splice(0).reverse()) await server.stop();
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

function fmt(n: number): string {
  return Math.round(n).toLocaleString('en-US');
}
