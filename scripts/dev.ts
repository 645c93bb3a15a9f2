/**
 * `npm run dev`: the live preview for content editors. Astro's dev server renders the pages, twins,
 * llms.txt and sitemap from content/ on each request (a saved Markdown file shows up at once, the
 * browser reloads by itself), and proxies /api and /sandbox/api to a sidecar of its own whose data
 * directory is a throwaway temp dir, removed on exit: the sign-up form works and keeps nothing.
 * Serves on HOST:PORT; absolute URLs in twins and llms.txt use BASE_URL (set it to match).
 */
import { fork, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { dev } from 'astro';
import { configOrExit } from '../api/config.ts';
import { addressFromReady } from '../api/net/sidecar-address.ts';
import { devApiProxy } from './dev-api-proxy.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const config = configOrExit();
const dataDir = await mkdtemp(path.join(tmpdir(), 'waitlist-dev-data-'));

/** The sidecar's ready message (api/sidecar/listen.ts): its URL, and its socket when it has one. */
type Ready = Parameters<typeof addressFromReady>[0] & { type?: string };

/** The sidecar (its own socket or a free loopback port); resolves with its ready message. */
function startSidecar(): Promise<{ child: ChildProcess; ready: Ready; exited: Promise<unknown> }> {
  const child = fork(path.join(root, 'api', 'sidecar', 'main.ts'), [], {
    env: { ...process.env, DATA_DIR: dataDir, SIDECAR_HOST: '127.0.0.1', SIDECAR_PORT: '0', DATABASE_URL: '', RATE_LIMIT_STORE: '' },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  return new Promise((resolve, reject) => {
    void exited.then((code) => reject(new Error(`the API sidecar exited with code ${code} before it was ready`)));
    child.on('message', (message: Ready) => {
      if (message.type === 'ready' && message.url) resolve({ child, ready: message, exited });
    });
  });
}

const sidecar = await startSidecar().catch(async (error: Error) => {
  console.error(`cannot start the preview: ${error.message}`);
  await rm(dataDir, { recursive: true, force: true });
  process.exit(1);
});
const sidecarUrl = sidecar.ready.url;
const target = addressFromReady(sidecar.ready);
const server = await dev({
  root,
  logLevel: 'info',
  server: { host: config.HOST, port: config.PORT },
  integrations: [devApiProxy(target)],
});
console.log(`preview on http://${config.HOST}:${server.address.port}/ (API sidecar ${sidecarUrl}, data in ${dataDir}, removed on exit)`);

let stopping = false;
async function stop(signal: NodeJS.Signals): Promise<void> {
  if (stopping) process.exit(1);
  stopping = true;
  console.log(`${signal}: stopping the preview and its sidecar`);
  await server.stop();
  sidecar.child.kill('SIGTERM');
  await sidecar.exited;
  await rm(dataDir, { recursive: true, force: true });
  process.exit(0);
}
// Vite exits on SIGTERM by itself, which would leave the sidecar's temp dir behind: ours instead.
process.removeAllListeners('SIGTERM');
process.removeAllListeners('SIGINT');
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
sidecar.child.on('exit', (code) => {
  if (!stopping) console.error(`the API sidecar exited (code ${code}); the pages still work, sign-ups do not. Restart npm run dev.`);
});
