/**
 * The IPC between a bench script and the processes it forks (the sidecar under test, an idle
 * control): the child reports its event-loop delay (monitorEventLoopDelay) and CPU time on request,
 * so the load generator never shares the measured event loop.
 */
import type { ChildProcess } from 'node:child_process';
import { monitorEventLoopDelay } from 'node:perf_hooks';

export interface LoopStats {
  /** CPU time (user + system) of the child so far: robust where wall-clock numbers are not. */
  cpuMs: number;
  maxStallMs: number;
  p99StallMs: number;
  rssMb: number;
}

/**
 * Child side: 'reset' restarts the delay histogram, 'reset' and 'stats' are answered with the
 * stats (plus `extra()`), 'stop' calls `stop`.
 */
export function answerStats(stop: () => void, extra: () => object = () => ({})): void {
  const delay = monitorEventLoopDelay({ resolution: 10 });
  delay.enable();
  process.on('message', (message: string) => {
    if (message === 'reset') delay.reset();
    if (message === 'stop') stop();
    if (message === 'reset' || message === 'stats') {
      const cpu = process.cpuUsage();
      const stats: LoopStats = { cpuMs: (cpu.user + cpu.system) / 1000, maxStallMs: delay.max / 1e6, p99StallMs: delay.percentile(99) / 1e6, rssMb: process.memoryUsage.rss() / 2 ** 20 };
      process.send!({ type: message, stats: { ...stats, ...extra() } });
    }
  });
}

/** Parent side: the child's next message of `type`; rejects if the child exits first. */
export function nextMessage<T>(child: ChildProcess, type: string): Promise<T> {
  return new Promise((done, fail) => {
    const onMessage = (message: { type?: string } & T) => {
      if (message?.type !== type) return;
      child.off('message', onMessage);
      done(message);
    };
    child.on('message', onMessage);
    child.once('exit', (code) => fail(new Error(`benchmark sidecar exited with ${code}`)));
  });
}

/** Parent side: sends 'reset' or 'stats' and resolves with the stats the child answers. */
export async function ask<S extends LoopStats = LoopStats>(child: ChildProcess, message: 'reset' | 'stats'): Promise<S> {
  const reply = nextMessage<{ stats: S }>(child, message);
  child.send(message);
  return (await reply).stats;
}
