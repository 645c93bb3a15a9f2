/**
 * Where the front's microseconds go on a static request, or with `--signup` on a proxied sign-up
 * (a sidecar of its own on the JSON store, unprofiled): runs the front under `--cpu-prof`
 * (writing its request line to a file, as in front.ts), loads one path with autocannon, stops it
 * with SIGTERM (the profile is written on exit) and prints the functions with the most self time,
 * and the same time grouped by where the code lives (node:http, the logger, the front's own
 * modules, …), as µs per request. The .cpuprofile file is kept for a flame graph (Chrome DevTools,
 * speedscope). Usage: node scripts/bench/profile-front.ts [--duration=N] [--path=/thanks/ | --signup].
 */
import { mkdtemp, readdir, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { configOrExit } from '../../api/config.ts';
import { benchEnv } from './probe.ts';
import { selfTimeOfLast, type Profile } from './cpu-profile.ts';
import { benchOptions, during, numberOption } from './progress.ts';
import { nodeServer, sidecar, type Running } from './servers.ts';
import { table } from './table.ts';

const duration = numberOption('duration', 5);
const signup = 'signup' in benchOptions();
const target = signup ? '/api/v1/waitlist' : (benchOptions().path ?? '/thanks/');
const root = path.resolve(import.meta.dirname, '..', '..');
const config = configOrExit();
const dir = await mkdtemp(path.join(tmpdir(), 'profile-front-'));
const env = { ...benchEnv(), DATA_DIR: path.join(dir, 'data'), LOG_REQUESTS: 'true', LOG_FORMAT: 'json', PORT: '0', HOST: '127.0.0.1', NODE_OPTIONS: `--cpu-prof --cpu-prof-dir=${dir}` };
let api: Running | undefined;
if (signup) {
  api = await sidecar(path.join(root, 'api/sidecar/main.ts'), { ...benchEnv(), DATA_DIR: path.join(dir, 'data'), SIDECAR_HOST: '127.0.0.1', SIDECAR_PORT: '0' });
  const { hostname, port } = new URL(api.url);
  Object.assign(env, { SIDECAR_LISTEN: 'tcp', SIDECAR_HOST: hostname, SIDECAR_PORT: port });
}
const front = await nodeServer('front', path.join(root, 'api/front/main.ts'), [], { ...env, DIST_DIR: config.DIST_DIR }, path.join(dir, 'front.log'));
let sent = 0;
// Distinct addresses, as launch-day sign-ups are.
const requests = signup
  ? [{ method: 'POST' as const, headers: { 'content-type': 'application/json' }, setupRequest: (request: object) => ({ ...request, body: JSON.stringify({ email: `p-${sent++}@example.com`, consent: true, role: 'data', lang: 'de' }) }) }]
  : undefined;
const load = (seconds: number) => autocannon({ url: front.url + target, connections: 32, duration: seconds, requests });
await load(1);
const result = await during(`profiling ${target}: ${duration} s`, async () => await load(duration));
await front.stop();
await api?.stop();
const file = (await readdir(dir)).find((name) => name.endsWith('.cpuprofile') && name.includes(`.${front.pid}.`))!;
const profile = JSON.parse(await readFile(path.join(dir, file), 'utf8')) as Profile;

// The measured run's samples: its `duration` seconds before the exit, plus a little for the stop itself.
const self = selfTimeOfLast(profile, duration + 0.1);
const perRequest = (micros: number) => (micros / result.requests.total).toFixed(2);

const byFunction = new Map<string, number>();
const byPlace = new Map<string, number>();
for (const node of profile.nodes) {
  const micros = self.get(node.id) ?? 0;
  if (!micros) continue;
  const { functionName, url, lineNumber } = node.callFrame;
  const place = placeOf(url, functionName);
  const name = `${functionName || '(anonymous)'} ${url ? `${path.basename(url)}:${lineNumber + 1}` : ''}`.trim();
  byFunction.set(name, (byFunction.get(name) ?? 0) + micros);
  byPlace.set(place, (byPlace.get(place) ?? 0) + micros);
}
const top = (map: Map<string, number>, n: number) => [...map].sort((a, b) => b[1] - a[1]).slice(0, n);
console.log(`\nFront, ${target}, 32 connections, ${result.requests.total} requests in ${duration} s; profile: ${path.join(dir, file)}`);
table(['where', 'µs/request'], top(byPlace, 12).map(([place, micros]) => [place, perRequest(micros)]));
console.log('');
table(['function (self time)', 'µs/request'], top(byFunction, 25).map(([name, micros]) => [name, perRequest(micros)]));

function placeOf(url: string, name: string): string {
  if (!url) return name.startsWith('(') ? name : 'native (V8, syscalls)';
  if (url.includes('/api/front/')) return `front: ${path.basename(url)}`;
  if (url.includes('/api/log/')) return `log: ${path.basename(url)}`;
  if (url.includes('node_modules/')) return `package: ${url.split('node_modules/').pop()!.split('/')[0]}`;
  if (url.startsWith('node:')) return `node: ${url.slice(5).split('/').slice(-1)[0]}`;
  return path.basename(url);
}
