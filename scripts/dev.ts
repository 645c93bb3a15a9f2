/**
 * `npm run dev` (docs/site.md, "Live preview for editors"): Astro's dev server renders content/ on
 * each request and passes the API to a sidecar of its own, in a throwaway temp data directory.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { dev } from 'astro';
import { configOrExit } from '../api/config.ts';
import { describeAddress } from '../api/net/sidecar-address.ts';
import { superviseSidecar } from '../api/start/supervisor.ts';
import { devApiProxy } from './dev-api-proxy.ts';

const root = path.resolve(import.meta.dirname, '..');
const config = configOrExit();
const dataDir = await mkdtemp(path.join(tmpdir(), 'waitlist-dev-data-'));

// The sidecar (its own socket or a free loopback port), restarted like `npm start`'s if it dies.
const sidecar = superviseSidecar({
  entry: path.join(root, 'api', 'sidecar', 'main.ts'),
  env: { ...process.env, DATA_DIR: dataDir, SIDECAR_HOST: '127.0.0.1', SIDECAR_PORT: '0', DATABASE_URL: '', RATE_LIMIT_STORE: '' },
  log: (line) => console.error(line),
});
await sidecar.start().catch(async (error: Error) => {
  console.error(`cannot start the preview: ${error.message}`);
  await rm(dataDir, { recursive: true, force: true });
  process.exit(1);
});
const server = await dev({
  root,
  logLevel: 'info',
  server: { host: config.HOST, port: config.PORT },
  integrations: [devApiProxy(sidecar.upstream)],
});
console.log(`preview on http://${config.HOST}:${server.address.port}/ (API sidecar ${describeAddress(sidecar.upstream()!)}, data in ${dataDir}, removed on exit)`);

let stopping = false;
async function stop(signal: NodeJS.Signals): Promise<void> {
  if (stopping) process.exit(1);
  stopping = true;
  console.log(`${signal}: stopping the preview and its sidecar`);
  await server.stop();
  await sidecar.stop();
  await rm(dataDir, { recursive: true, force: true });
  process.exit(0);
}
// Vite exits on SIGTERM by itself, which would leave the sidecar's temp dir behind: ours instead.
process.removeAllListeners('SIGTERM');
process.removeAllListeners('SIGINT');
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
