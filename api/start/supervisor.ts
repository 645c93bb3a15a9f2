/**
 * Runs the API sidecar as a child process and keeps it running: a child that dies is restarted
 * with a growing delay, and meanwhile `upstream()` is undefined so the proxy holds API requests
 * for the next child (api/front/proxy.ts). The child says it is ready over IPC: `{type: 'ready', url}`.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { ask, type Question } from '../metrics/ipc.ts';
import { addressFromReady, type SidecarAddress } from '../net/sidecar-address.ts';
import type { Listened } from '../sidecar/listen.ts';
import type { SignalledMessage, StopMessage } from '../sidecar/stop-request.ts';

/** A signal to the front follows one to the sidecar within this time when both were signalled. */
const LONE_SIGNAL_MS = 1_000;
/** A child that ran this long before dying resets the restart delay: it was not a crash loop. */
const STABLE_MS = 10_000;
const MAX_DELAY_MS = 10_000;
/** A child that has not said ready by then is killed and counts as failed. */
const READY_TIMEOUT_MS = 30_000;
/** How long a stopping child may take after SIGTERM before SIGKILL. */
const STOP_TIMEOUT_MS = 10_000;
/** How long the sidecar may take to answer a scrape or a readiness probe. */
const ASK_TIMEOUT_MS = 1_000;
/** A message to a child whose channel just closed is moot: its exit is handled on its own. */
const ignoreClosed = () => {};

export interface SupervisorOptions {
  entry: string;
  env: NodeJS.ProcessEnv;
  log: (line: string) => void;
  /** First restart delay; doubles per failed attempt up to MAX_DELAY_MS. */
  initialDelayMs?: number;
  /** Called each time a child that had been ready died and is being replaced (metrics). */
  onRestart?: () => void;
}

/** The sidecar's ready message (api/sidecar/main.ts): where it listens. */
type ReadyMessage = Listened & { type: 'ready' };

export function superviseSidecar({ entry, env, log, initialDelayMs = 250, onRestart }: SupervisorOptions) {
  let child: ChildProcess | undefined;
  let upstream: SidecarAddress | undefined;
  let delay = initialDelayMs;
  let stopping = false;
  let restartTimer: NodeJS.Timeout | undefined;

  /** Spawns one child; resolves when it is ready, rejects when it exits or times out before. */
  function spawnOnce(): Promise<void> {
    // Its own process group: a Ctrl-C in the terminal reaches only the supervisor, which stops the
    // front first and the sidecar last, so API requests in flight can finish.
    const current = fork(entry, [], { env, stdio: ['ignore', 'inherit', 'inherit', 'ipc'], detached: true });
    child = current;
    return new Promise<void>((resolve, reject) => {
      let readyAt: number | undefined;
      const timer = setTimeout(() => {
        log(`sidecar not ready after ${READY_TIMEOUT_MS} ms; stopping it`);
        current.kill('SIGKILL');
      }, READY_TIMEOUT_MS);
      current.on('message', (message: SignalledMessage | ReadyMessage) => {
        if (message?.type === 'signalled') {
          // A signal for the sidecar alone (its stop-request.ts reported it): if none follows for
          // this process, replace the sidecar (stop it gracefully; the exit restarts it).
          setTimeout(() => {
            if (stopping || child !== current || !current.connected) return;
            log(`sidecar got ${message.signal}; stopping it and starting a new one`);
            current.send({ type: 'stop' } satisfies StopMessage, ignoreClosed);
          }, LONE_SIGNAL_MS).unref();
        }
        if (message?.type !== 'ready' || readyAt !== undefined) return;
        readyAt = Date.now();
        // From now on a signal that reaches the sidecar directly waits for the front (stop-request.ts).
        if (current.connected) current.send({ type: 'supervised' } satisfies StopMessage, ignoreClosed);
        clearTimeout(timer);
        upstream = addressFromReady(message);
        resolve();
      });
      current.on('exit', (code, signal) => {
        clearTimeout(timer);
        if (child === current) {
          child = undefined;
          upstream = undefined;
        }
        const how = signal ? `signal ${signal}` : `code ${code}`;
        if (readyAt === undefined) reject(new Error(`sidecar exited with ${how} before it was ready`));
        else if (!stopping) {
          if (Date.now() - readyAt >= STABLE_MS) delay = initialDelayMs;
          log(`sidecar exited with ${how}; restarting in ${delay} ms`);
          onRestart?.();
          scheduleRestart();
        }
      });
    });
  }

  function scheduleRestart(): void {
    const wait = delay;
    delay = Math.min(delay * 2, MAX_DELAY_MS);
    restartTimer = setTimeout(() => {
      restartTimer = undefined;
      if (stopping) return;
      spawnOnce().then(
        () => log('sidecar restarted'),
        (error: Error) => {
          if (stopping) return;
          log(`${error.message}; retrying in ${delay} ms`);
          scheduleRestart();
        },
      );
    }, wait);
  }

  // Whatever ends this process (an uncaught error, process.exit), the child does not outlive it.
  process.on('exit', () => child?.kill('SIGKILL'));

  return {
    /** Where the ready child listens; undefined while none is. */
    upstream: (): SidecarAddress | undefined => upstream,
    /** Resolves once the first child is ready; rejects if it exits or times out first. */
    start: spawnOnce,
    /** The current child's pid (for tests and logs). */
    pid: () => child?.pid,
    /** The child's Prometheus text or readiness (api/metrics/ipc.ts); undefined when it is down or slow. */
    ask: async <Q extends Question>(question: Q) => (child && upstream ? ask(child, question, ASK_TIMEOUT_MS) : undefined),
    async stop(): Promise<void> {
      stopping = true;
      clearTimeout(restartTimer);
      const current = child;
      if (!current || current.exitCode !== null || current.signalCode !== null) return;
      const exited = new Promise<void>((resolve) => current.once('exit', () => resolve()));
      // The sidecar stops on the message (api/sidecar/stop-request.ts); SIGTERM follows for a
      // child that does not read it, or at once when the channel is gone.
      if (current.connected) current.send({ type: 'stop' } satisfies StopMessage, ignoreClosed);
      const nudge = setTimeout(() => current.kill('SIGTERM'), current.connected ? LONE_SIGNAL_MS : 0);
      const timer = setTimeout(() => {
        log(`sidecar still running ${STOP_TIMEOUT_MS} ms after SIGTERM; killing it`);
        current.kill('SIGKILL');
      }, STOP_TIMEOUT_MS);
      await exited;
      clearTimeout(nudge);
      clearTimeout(timer);
    },
  };
}
