/**
 * The status probe (GET /api/v1/status) straight to the sidecar and through proxies in front of
 * the same sidecar: the front itself (to the sidecar over TCP and over its Unix socket), the
 * floor candidates (bare-proxy.ts, the least a Node proxy can do: node:http's Agent and undici's
 * Pool, each over TCP and over the Unix socket) and nginx (nginx-proxy.conf, kept-alive upstream).
 * At 1 and 32 connections it prints req/s, p50, p99 and mean latency (to the microsecond), what
 * each proxy adds to the direct latency, CPU per request of the proxy and of the sidecar, and the
 * proxy's CPU over nginx's. Targets for the front: CPU per request <= 1.5x nginx's, p50 at one
 * connection <= +50 % over direct. Routes are measured in interleaved rounds (default 3) and the
 * per-metric median is shown, so one noisy moment on a busy machine does not decide a row.
 *
 * Run alone: `node scripts/bench/probe.ts [--duration=N] [--rounds=N]`; `npm run bench` runs it
 * after the static-file comparison (scripts/bench/front.ts). 127.0.0.1 and ephemeral ports only.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { API_PATHS } from '../../api/contract/index.ts';
import { SIDECAR_SOCKET_NAME } from '../../api/net/sidecar-address.ts';
import { measure, median, type Measured } from './latency.ts';
import { during, numberOption } from './progress.ts';
import { loadNote, nginx, nodeServer, sidecar, type Running } from './servers.ts';
import { table } from './table.ts';

const ROOT = path.resolve(import.meta.dirname, '..', '..');
const CONNECTIONS = [1, 32];

export interface ProbeOptions {
  /** Seconds per measured run. */
  duration: number;
  rounds: number;
  /** The environment of the servers (DATA_DIR is set here). */
  env: NodeJS.ProcessEnv;
}

interface Route {
  name: string;
  url: string;
  /** The proxy's pid, if there is one, then the sidecar's. */
  pids: number[];
}

export async function probeBench({ duration, rounds, env }: ProbeOptions): Promise<void> {
  const tmp = await mkdtemp(path.join(tmpdir(), 'bench-probe-'));
  const running: Running[] = [];
  try {
    const { api, routes } = await during('status probe: starting the sidecars, the fronts, the floor proxies and nginx', async () => {
      const api = await sidecar(path.join(ROOT, 'api/sidecar/main.ts'), { ...env, DATA_DIR: path.join(tmp, 'data'), SIDECAR_HOST: '127.0.0.1', SIDECAR_PORT: '0' });
      running.push(api);
      const at = new URL(api.url);
      // A second, identical sidecar on its Unix socket (the default set-up).
      const socketData = path.join(tmp, 'data-socket');
      const socketEnv = { ...env, SIDECAR_LISTEN: 'socket', DATA_DIR: socketData };
      const socketApi = await sidecar(path.join(ROOT, 'api/sidecar/main.ts'), socketEnv);
      running.push(socketApi);
      const socketPath = path.join(socketData, SIDECAR_SOCKET_NAME);
      const routes: Route[] = [{ name: 'sidecar (direct)', url: api.url, pids: [api.pid] }];
      const add = async (proxy: Promise<Running>, behind: Running) => {
        const started = await proxy;
        running.push(started);
        routes.push({ name: started.name, url: started.url, pids: [started.pid, behind.pid] });
      };
      await add(nodeServer('front, TCP', path.join(ROOT, 'api/front/main.ts'), [], { ...env, HOST: '127.0.0.1', PORT: '0', SIDECAR_HOST: at.hostname, SIDECAR_PORT: at.port }), api);
      await add(nodeServer('front, Unix socket', path.join(ROOT, 'api/front/main.ts'), [], { ...socketEnv, HOST: '127.0.0.1', PORT: '0' }), socketApi);
      const bare = path.join(import.meta.dirname, 'bare-proxy.ts');
      await add(nodeServer('floor http.Agent, TCP', bare, ['http', at.host], env), api);
      await add(nodeServer('floor http.Agent, socket', bare, ['http', socketPath], env), socketApi);
      await add(nodeServer('floor undici Pool, TCP', bare, ['undici', at.host], env), api);
      await add(nodeServer('floor undici Pool, socket', bare, ['undici', socketPath], env), socketApi);
      await add(nginx(path.join(tmp, 'nginx'), { SIDECAR: at.host }, 'nginx-proxy.conf', 'nginx'), api);
      return { api, routes };
    });

    const rows: string[][] = [];
    for (const connections of CONNECTIONS) {
      const runs = new Map<string, Measured[]>(routes.map((r) => [r.name, []]));
      for (let round = 0; round < rounds; round++) {
        // Alternate the order, so that no route always runs right after the same neighbour.
        for (const route of round % 2 ? [...routes].reverse() : routes) {
          const label = `status probe, ${connections} conn., round ${round + 1}/${rounds}: ${route.name}, 1 s warm-up + ${duration} s`;
          runs.get(route.name)!.push(await during(label, measure(route.url + API_PATHS.status, connections, duration, route.pids)));
        }
      }
      const direct = median(runs.get(routes[0].name)!);
      const nginxCpu = median(runs.get('nginx')!).cpuMicros[0];
      for (const route of routes) {
        const m = median(runs.get(route.name)!);
        const proxied = route.pids.length === 2;
        const added = (key: 'p50' | 'p99' | 'mean') => (proxied ? signed((m[key] / direct[key] - 1) * 100) : '');
        rows.push([
          String(connections), route.name, Math.round(m.requestsPerSecond).toLocaleString('en-US'),
          m.p50.toFixed(3), m.p99.toFixed(3), m.mean.toFixed(3),
          added('p50'), added('p99'), added('mean'),
          proxied ? m.cpuMicros[0].toFixed(0) : '', proxied ? `${(m.cpuMicros[0] / nginxCpu).toFixed(2)}x` : '', m.cpuMicros.at(-1)!.toFixed(0), String(m.failed),
        ]);
      }
    }
    console.log(`\nStatus probe ${API_PATHS.status}: straight to the sidecar vs through a proxy; ${duration} s per run, median of ${rounds} rounds; ${loadNote()}`);
    console.log('targets for the front: proxy cpu <= 1.5x nginx\'s; added p50 at 1 connection <= +50 %');
    console.log('(latency in ms; "added": over the direct figure; cpu: µs per request; /nginx: proxy cpu over nginx\'s)');
    table(['conns', 'route', 'req/s', 'p50', 'p99', 'mean', 'added p50', 'added p99', 'added mean', 'proxy cpu', '/nginx', 'sidecar cpu', 'errors'], rows);
  } finally {
    for (const server of running.reverse()) await server.stop();
    await rm(tmp, { recursive: true, force: true });
  }
}

function signed(percent: number): string {
  return `${percent >= 0 ? '+' : '−'}${Math.abs(percent).toFixed(0)} %`;
}

if (import.meta.main) {
  await probeBench({ duration: numberOption('duration', 5), rounds: numberOption('rounds', 3), env: benchEnv() });
}

/**
 * Quiet servers, and limits high enough that the comparison measures proxying, not 429s. The
 * sidecar on TCP (not the default Unix socket): nginx and the floor proxy reach it the same way.
 */
export function benchEnv(): NodeJS.ProcessEnv {
  return { ...process.env, LOG_REQUESTS: 'false', RATE_LIMIT_STANDARD: '1000000000', RATE_LIMIT_RELAXED: '1000000000', SIDECAR_LISTEN: 'tcp' };
}
