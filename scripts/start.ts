/**
 * `npm start`: start-up checks, the site built when stale, the sidecar supervised, the front (and
 * the metrics listener), and a clean stop on SIGINT or SIGTERM that leaves nothing running, even
 * during start-up (docs/front.md, "`npm start`"). package.json runs it with `exec`, so the signals
 * npm forwards reach it.
 */
import path from 'node:path';
import { configOrExit } from '../api/config.ts';
import { preflight } from '../api/start/preflight.ts';
import { productionGuardOrExit } from '../site/lib/production-guard.ts';
import { buildSite, staleReason } from '../api/start/site-build.ts';
import { startFront, type Front } from '../api/front/start.ts';
import { loadSite } from '../api/front/static.ts';
import { superviseSidecar } from '../api/start/supervisor.ts';
import { createLogger } from '../api/log/logger.ts';
import { createFrontMetrics } from '../api/front/metrics.ts';
import { listenMetrics, type MetricsServer } from '../api/metrics/server.ts';

const SHUTDOWN_GRACE_MS = 10_000;
/**
 * A repeat of a signal within this time is the same event delivered twice: a signal to the whole
 * process group reaches this process directly and again through npm, which forwards it.
 */
const SAME_SIGNAL_MS = 1_000;
const root = path.resolve(import.meta.dirname, '..');
const config = configOrExit();
productionGuardOrExit(config); // before any build: docs/deploy.md, "Before the first deploy"
const logger = createLogger('front', config);

const build = new AbortController();
const sidecar = superviseSidecar({
  entry: path.join(root, 'api', 'sidecar', 'main.ts'),
  env: { ...process.env, SIDECAR_PORT: String(config.SIDECAR_PORT) },
  log: (line) => logger.warn(line),
  onRestart: () => metrics?.sidecarRestarted(),
});
const metrics = config.METRICS_PORT === undefined ? undefined : createFrontMetrics(() => sidecar.upstream() !== undefined);
let front: Front | undefined;
let metricsServer: MetricsServer | undefined;
let stoppingSince: number | undefined;

async function stop(signal: NodeJS.Signals): Promise<void> {
  if (stoppingSince !== undefined) {
    if (Date.now() - stoppingSince < SAME_SIGNAL_MS) return;
    // A second signal later on: the operator does not want to wait.
    logger.warn(`${signal} again: stopping now`);
    process.exit(1);
  }
  stoppingSince = Date.now();
  logger.info(`${signal}: finishing requests in flight, then stopping`);
  await stopAll(SHUTDOWN_GRACE_MS);
  logger.info(`stopped: ${front ? `${front.url} closed, ` : ''}sidecar stopped and the data directory released`);
  process.exit(0);
}
process.on('SIGINT', stop);
process.on('SIGTERM', stop);

/** A start-up step failed: stop with its message, unless a signal is already stopping us. */
let failing = false;
async function failed(message: string): Promise<never> {
  if (stoppingSince !== undefined || failing) return new Promise<never>(() => {});
  failing = true;
  // A refusal to start is for a person, like a configuration error: plain text on stderr.
  console.error(message);
  await stopAll(0);
  process.exit(1);
}

/** Stops whatever has been started, the front first and the sidecar last. */
async function stopAll(graceMs: number): Promise<void> {
  build.abort();
  await front?.close(graceMs);
  front?.closeProxy();
  await metricsServer?.close();
  await sidecar.stop();
}

// Fail fast: a clash is reported before a build that may take seconds.
const problems = await preflight(config);
if (problems.length > 0) await failed(`cannot start: ${problems.join(' ')}`);
const reason = await staleReason(root, config);
if (reason) {
  logger.info(`building the site: ${reason}`);
  await buildSite(root, config, process.env, { signal: build.signal }).catch((error: Error) => failed(error.message));
}
// The sidecar boots in its own process while this one reads and compresses the site.
const [, site] = await Promise.all([
  sidecar.start().catch((error: Error) => failed(`cannot start the API: ${error.message}`)),
  loadSite(config.DIST_DIR, config.BASE_URL).catch((error: Error) => failed(`cannot load the site from DIST_DIR: ${error.message}`)),
]);
if (stoppingSince === undefined && metrics) {
  metricsServer = await listenMetrics(metrics.registry, () => sidecar.ask('metrics'), config.METRICS_HOST, config.METRICS_PORT!, () => sidecar.ask('readiness')).catch((error: Error) =>
    failed(`cannot start the metrics listener (METRICS_HOST:METRICS_PORT): ${error.message}`),
  );
  logger.info(`metrics on ${metricsServer.url}`);
}
if (stoppingSince === undefined) {
  front = await startFront(config, { site, upstream: sidecar.upstream, logger, metrics }).catch((error: Error) =>
    failed(`cannot start the front: ${error.message}`),
  );
  logger.info(`listening on ${front.url}; site from ${config.DIST_DIR}${reason ? '' : ' (current, not rebuilt)'}; ready ${Math.round(performance.now())} ms after start`);
  process.send?.({ type: 'ready', url: front.url });
}
