/**
 * Where the sidecar's microseconds go on a sign-up: the sidecar alone over TCP on a throwaway
 * PostgreSQL with durable commits (as in signup-peers.ts), run under `--cpu-prof`, loaded with
 * distinct JSON sign-ups from 32 clients, stopped with SIGTERM (the profile is written on exit);
 * prints the self time grouped by where the code lives (node:http, web streams, h3, pg, zod, the
 * sidecar's own modules, …) and the functions with the most self time, as shares of the samples
 * and as µs of the CPU per sign-up that /proc measured. With
 * `--server=plain` or `--server=h3-floor` it profiles the peer instead. The .cpuprofile is kept
 * for a flame graph (Chrome DevTools, speedscope). With `--stats` it profiles the sidecar answering
 * the statistics to 32 pollers with a Bearer token instead (autocannon, as the PostgreSQL bench polls).
 * Usage: node scripts/bench/profile-sidecar.ts [--duration=N] [--server=sidecar|plain|h3-floor] [--stats].
 */
import { mkdtemp, readdir, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { API_PATHS } from '../../api/contract/index.ts';
import { startPostgres } from '../../test/support/engines/postgres.ts';
import { accessToken, addBenchClient } from './bench-client.ts';
import { selfTimeOfLast, type Profile } from './cpu-profile.ts';
import { seedPostgres } from './postgres-seed.ts';
import { benchOptions, during, numberOption } from './progress.ts';
import { cpuSeconds, nodeServer, sidecar, type Running } from './servers.ts';
import { signupLoad } from './signup-load.ts';
import { table } from './table.ts';

/** The native calls that write to a socket (node:net's stream_base). */
const SOCKET_WRITES = new Set(['writev', 'writeUtf8String', 'writeBuffer', 'writeLatin1String', 'writeAsciiString']);
const duration = numberOption('duration', 8);
const which = benchOptions().server ?? 'sidecar';
const stats = 'stats' in benchOptions();
const root = path.resolve(import.meta.dirname, '..', '..');
const dir = await mkdtemp(path.join(tmpdir(), 'profile-sidecar-'));
const engine = await during('starting a throwaway PostgreSQL (fsync on)', startPostgres({ durable: true }));
let server: Running | undefined;
try {
  const url = await engine.createDatabase('signups');
  await during('PostgreSQL: 10,000 rows and the statistics counters', seedPostgres(url, 10_000));
  const env = { ...process.env, DATABASE_URL: url, DATA_DIR: path.join(dir, 'data'), LOG_REQUESTS: 'false', RATE_LIMIT_STANDARD: '1000000000', RATE_LIMIT_RELAXED: '1000000000', SIDECAR_LISTEN: 'tcp', SIDECAR_HOST: '127.0.0.1', SIDECAR_PORT: '0', NODE_OPTIONS: `--cpu-prof --cpu-prof-dir=${dir}` };
  server =
    which === 'sidecar'
      ? await sidecar(path.join(root, 'api/sidecar/main.ts'), env)
      : await nodeServer(which, path.join(import.meta.dirname, `${which}-${which === 'plain' ? 'signup-' : ''}server.ts`), [url], env);
  const result = stats
    ? await during(`profiling ${which}: statistics for ${duration} s`, statsLoad(server, url))
    : await during(`profiling ${which}: sign-ups for ${duration} s`, signupLoad(server.url, 32, duration, [{ pid: server.pid }]));
  await server.stop();
  const file = (await readdir(dir)).find((name) => name.endsWith('.cpuprofile'))!;
  report(JSON.parse(await readFile(path.join(dir, file), 'utf8')) as Profile, Math.round(result.perSecond * duration), path.join(dir, file), result.cpuMicros[0]);
} finally {
  await server?.stop();
  await engine.stop();
}

/** 32 pollers of the statistics with a Bearer token for `duration` s, and the sidecar's CPU per answer. */
async function statsLoad(server: Running, databaseUrl: string): Promise<{ perSecond: number; cpuMicros: number[] }> {
  await addBenchClient(databaseUrl);
  const token = await accessToken(server.url);
  const poll = (seconds: number) => autocannon({ url: new URL(API_PATHS.stats, server.url).href, connections: 32, duration: seconds, headers: { authorization: `Bearer ${token}` } });
  await poll(1);
  const before = await cpuSeconds(server.pid);
  const result = await poll(duration);
  const cpu = (await cpuSeconds(server.pid)) - before;
  if (result.non2xx) console.error(`${result.non2xx} answers were not 2xx`);
  return { perSecond: result['2xx'] / duration, cpuMicros: [(cpu * 1e6) / Math.max(1, result['2xx'])] };
}

function report(profile: Profile, answered: number, file: string, cpuMicros: number): void {
  // The measured run's samples only: its `duration` s before the exit, plus a little for the stop.
  const self = selfTimeOfLast(profile, duration + 0.3);
  const byFunction = new Map<string, number>();
  const byPlace = new Map<string, number>();
  let sampled = 0;
  for (const node of profile.nodes) {
    const micros = self.get(node.id) ?? 0;
    const { functionName, url, lineNumber } = node.callFrame;
    // A sampling profiler counts wall time: on a busy machine a process descheduled inside a
    // socket write is sampled there for as long as others run, so the write calls are left out.
    if (!micros || functionName === '(idle)' || SOCKET_WRITES.has(functionName)) continue;
    sampled += micros;
    const name = `${functionName || '(anonymous)'} ${url ? `${path.basename(url)}:${lineNumber + 1}` : ''}`.trim();
    byFunction.set(name, (byFunction.get(name) ?? 0) + micros);
    const place = placeOf(url, functionName);
    byPlace.set(place, (byPlace.get(place) ?? 0) + micros);
  }
  // Each sample's share of the sampled CPU, times the CPU per sign-up /proc measured.
  const per = (micros: number) => ((micros / Math.max(1, sampled)) * cpuMicros).toFixed(1);
  const share = (micros: number) => `${((100 * micros) / Math.max(1, sampled)).toFixed(1)} %`;
  const top = (map: Map<string, number>, n: number) => [...map].sort((a, b) => b[1] - a[1]).slice(0, n);
  console.log(`\n${which}: ${answered} ${stats ? 'statistics answers' : 'sign-ups'} in ${duration} s, ${cpuMicros.toFixed(0)} µs CPU each (/proc), shared out by the profile's samples; profile: ${file}`);
  table(['where (self time)', 'µs/sign-up', 'share'], top(byPlace, 16).map(([place, micros]) => [place, per(micros), share(micros)]));
  console.log('');
  table(['function (self time)', 'µs/sign-up', 'share'], top(byFunction, 30).map(([name, micros]) => [name, per(micros), share(micros)]));
}

function placeOf(url: string, name: string): string {
  if (!url) return name.startsWith('(') ? name : 'native (V8, syscalls)';
  if (url.includes('/api/')) return `app: ${url.split('/api/').pop()}`;
  if (url.includes('node_modules/')) return `package: ${url.split('node_modules/').pop()!.split('/')[0]}`;
  if (url.includes('webstreams')) return 'node: web streams';
  if (url.startsWith('node:')) return `node: ${url.slice(5).split('/').slice(-1)[0]}`;
  return path.basename(url);
}
