/**
 * The sidecar process: `node api/sidecar/main.ts`. Configuration -> storage backend -> rate-limit
 * engine -> listen (listen.ts); with an IPC channel it sends `{type: 'ready', url, socketPath?}` to
 * the parent. A stop request (stop-request.ts) stops it gracefully with exit code 0; a reason not
 * to start (StartupError) with exit code 1 and a one-paragraph message on stderr.
 */
import { createServer, maxHeaderSize, type Server } from 'node:http';
import { toNodeHandler } from 'h3';
import { configOrExit } from '../config.ts';
import { createApp } from './app.ts';
import { closeGracefully } from '../net/close-gracefully.ts';
import { listenSidecar } from './listen.ts';
import { sidecarAddress } from '../net/sidecar-address.ts';
import { systemClock } from './deps.ts';
import { createLogger } from '../log/logger.ts';
import { answer } from '../metrics/ipc.ts';
import type { EngineHealth } from './health/engine-health.ts';
import { readinessOf } from '../metrics/readiness.ts';
import type { RateLimitStore } from './http/rate-limit/decision.ts';
import { openRateLimitStore } from './http/rate-limit/index.ts';
import type { Backend } from './store/backend.ts';
import { openBackend } from './store/open-backend.ts';
import { StartupError } from './store/errors.ts';
import { onStopRequest } from './stop-request.ts';

/** After this long, connections still open at shutdown are cut. */
const SHUTDOWN_GRACE_MS = 10_000;

const config = configOrExit();
const logger = createLogger('sidecar', config);
// Only when scraped does anything cross to the front (metrics/ipc.ts). Off without METRICS_PORT,
// and then prom-client is not even loaded.
const metrics = config.METRICS_PORT === undefined ? undefined : (await import('./metrics.ts')).createSidecarMetrics();
if (metrics) answer('metrics', () => metrics.registry.metrics());

async function start(): Promise<void> {
  const backend = await openBackend(config, { warn: (line) => logger.warn(line), serveOperator: true, onCommit: metrics?.onCommit, logger });
  // No close at shutdown: the exit ends its connection, and windows need no flush.
  let limiter: RateLimitStore | undefined;
  try {
    const { store, keys, clients } = backend;
    logger.info(await backend.describe());
    limiter = await openRateLimitStore(config, logger);
    // Readiness and waitlist_engine_up: every engine in use, read when asked (metrics/ipc.ts).
    const engines: EngineHealth[] = limiter.health ? [backend.health, limiter.health] : [backend.health];
    const states = () => engines.map((engine) => engine.state());
    metrics?.watchEngines(states);
    if (metrics) answer('readiness', () => readinessOf(states()));
    const app = createApp({ store, clock: systemClock, keys, clients, config, logger, limiter });
    // The front refuses a head over node:http's limit (16 KB) and adds its forwarding fields to the
    // rest: with twice the room, the sidecar never refuses, in node:http's bare shape, a head the front passed.
    const server = createServer({ maxHeaderSize: 2 * maxHeaderSize }, toNodeHandler(app));
    const listened = await listenSidecar(server, sidecarAddress(config));
    logger.info(`sidecar listening on ${listened.url}`);
    let stopping: Promise<void> | undefined;
    const stop = () => void (stopping ??= shutdown(server, backend));
    onStopRequest(stop, logger);
    if (process.send) {
      if (process.connected) process.send({ type: 'ready', ...listened });
      else stop();
    }
  } catch (error) {
    await backend.close();
    await limiter?.close();
    throw error;
  }
}

async function shutdown(server: Server, backend: Backend): Promise<void> {
  try {
    await closeGracefully(server, SHUTDOWN_GRACE_MS);
    await backend.close();
  } catch (error) {
    logger.error(`sidecar: shutdown failed: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  }
  logger.info('sidecar stopped: requests finished, store closed');
  process.exit(0);
}

start().catch((error: unknown) => {
  const message = error instanceof StartupError ? error.message : `The sidecar could not start: ${error instanceof Error ? error.message : String(error)}`;
  // A refusal to start is for a person, like a configuration error: plain text on stderr.
  process.stderr.write(`${message}\n`);
  process.exit(1);
});
