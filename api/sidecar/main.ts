/**
 * The sidecar process: `node api/sidecar/main.ts`. Configuration -> data-directory lock -> store,
 * keys and clients -> listen on SIDECAR_HOST:SIDECAR_PORT. Prints `sidecar listening on <url>`
 * and, when started with an IPC channel, sends `{type: 'ready', url}` to the parent. SIGINT,
 * SIGTERM and the loss of that channel (the parent died) stop it gracefully (in-flight requests
 * finish, the store is flushed, the lock released) with exit code 0. A bad configuration, a held
 * lock or a corrupt file stops it with exit code 1 and a one-paragraph message on stderr.
 */
import { mkdir } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { resolve } from 'node:path';
import { toNodeHandler } from 'h3';
import { configOrExit } from '../config.ts';
import { createApp } from './app.ts';
import { listenSidecar } from './listen.ts';
import { sidecarAddress } from '../net/sidecar-address.ts';
import { systemClock } from './deps.ts';
import type { Logger } from './http/log.ts';
import { openRateLimitStore, type RateLimitStore } from './http/rate-limit/index.ts';
import { FileClientDirectory, clientsPath } from './store/clients-file.ts';
import { StartupError } from './store/errors.ts';
import { loadOrCreateKeys } from './store/keys.ts';
import { acquireLock, dataDirLockPath, type Lock } from './store/lock.ts';
import { JsonWaitlistStore } from './store/waitlist-store.ts';

/** After this long, connections still open at shutdown are cut. */
const SHUTDOWN_GRACE_MS = 10_000;

const logger: Logger = {
  info: (line) => process.stdout.write(`${line}\n`),
  error: (line) => process.stderr.write(`${line}\n`),
};

async function start(): Promise<void> {
  const config = configOrExit();
  const dataDir = resolve(config.DATA_DIR);
  await mkdir(dataDir, { recursive: true, mode: 0o700 });
  const lock = await acquireLock(dataDirLockPath(dataDir), `The data directory ${dataDir}`);
  let store: JsonWaitlistStore | undefined;
  // No close at shutdown: the exit ends its connection, and windows need no flush.
  let limiter: RateLimitStore | undefined;
  try {
    store = await JsonWaitlistStore.open(dataDir);
    const keys = await loadOrCreateKeys(dataDir, config);
    const clients = await new FileClientDirectory(clientsPath(dataDir)).load();
    limiter = await openRateLimitStore(config, logger);
    const app = createApp({ store, clock: systemClock, keys, clients, config, logger, limiter });
    const server = createServer(toNodeHandler(app));
    const listened = await listenSidecar(server, sidecarAddress(config));
    logger.info(`sidecar listening on ${listened.url}`);
    const stop = once(() => shutdown(server, store!, lock));
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
    if (process.send) {
      // A parent that forked us with IPC (the npm start supervisor, in its own process group) and
      // died without stopping us would leave us running unowned: its end closing is our SIGTERM.
      process.on('disconnect', stop);
      if (process.connected) process.send({ type: 'ready', ...listened });
      else stop();
    }
  } catch (error) {
    await store?.close();
    await limiter?.close();
    await lock.release();
    throw error;
  }
}

async function shutdown(server: Server, store: JsonWaitlistStore, lock: Lock): Promise<void> {
  const closed = new Promise<void>((done) => server.close(() => done()));
  // Keep-alive connections that fall idle after close() would hold it open; close them as they do.
  const idle = setInterval(() => server.closeIdleConnections(), 50);
  const cut = setTimeout(() => server.closeAllConnections(), SHUTDOWN_GRACE_MS);
  await closed;
  clearInterval(idle);
  clearTimeout(cut);
  await store.close();
  await lock.release();
  process.exit(0);
}

function once(fn: () => Promise<void>): () => void {
  let started = false;
  return () => {
    if (started) return;
    started = true;
    fn().catch((error) => {
      logger.error(`sidecar: shutdown failed: ${error instanceof Error ? error.message : String(error)}`);
      process.exit(1);
    });
  };
}

start().catch((error: unknown) => {
  const message = error instanceof StartupError ? error.message : `The sidecar could not start: ${error instanceof Error ? error.message : String(error)}`;
  process.stderr.write(`${message}\n`);
  process.exit(1);
});
