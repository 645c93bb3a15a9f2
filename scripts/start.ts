/**
 * `npm start`: build the site if DIST_DIR is missing or stale, start the API sidecar as a
 * supervised child, serve the site and proxy the API from this process, and stop both cleanly on
 * SIGINT or SIGTERM (requests in flight finish first, for at most SHUTDOWN_GRACE_MS). A signal
 * during start-up stops whatever has been started so far (the build, the sidecar): nothing is
 * left running.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { configOrExit } from '../api/config.ts';
import { productionGuardOrExit } from '../site/lib/production-guard.ts';
import { buildSite, staleReason } from '../api/front/site-build.ts';
import { startFront, type Front } from '../api/front/start-front.ts';
import { superviseSidecar } from '../api/front/supervisor.ts';

const SHUTDOWN_GRACE_MS = 10_000;
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const config = configOrExit();
productionGuardOrExit(config); // before any build: docs/deploy.md, "Before the first deploy"
const log = (line: string) => console.error(line);

const build = new AbortController();
const sidecar = superviseSidecar({
  entry: path.join(root, 'api', 'sidecar', 'main.ts'),
  env: { ...process.env, SIDECAR_PORT: String(config.SIDECAR_PORT) },
  log,
});
let front: Front | undefined;
let stopping = false;

async function stop(signal: NodeJS.Signals): Promise<void> {
  if (stopping) {
    // A second signal: the operator does not want to wait.
    log(`${signal} again: stopping now`);
    process.exit(1);
  }
  stopping = true;
  log(`${signal}: finishing requests in flight, then stopping`);
  build.abort();
  if (front) {
    await front.close(SHUTDOWN_GRACE_MS);
    front.closeProxy();
  }
  await sidecar.stop();
  process.exit(0);
}
process.on('SIGINT', stop);
process.on('SIGTERM', stop);

/** A start-up step failed: stop with its message, unless a signal is already stopping us. */
async function failed(message: string): Promise<never> {
  if (stopping) return new Promise<never>(() => {});
  console.error(message);
  await sidecar.stop();
  process.exit(1);
}

const reason = await staleReason(root, config);
if (reason) {
  log(`building the site: ${reason}`);
  await buildSite(root, config, process.env, { signal: build.signal }).catch((error: Error) => failed(error.message));
}
await sidecar.start().catch((error: Error) => failed(`cannot start the API: ${error.message}`));
if (!stopping) {
  front = await startFront(config, { upstream: sidecar.upstream }).catch((error: Error) => failed(`cannot start the front: ${error.message}`));
  console.log(`listening on ${front.url}`);
  process.send?.({ type: 'ready', url: front.url });
}
