/**
 * When the sidecar stops. Alone: on SIGINT or SIGTERM. Under the npm start supervisor (`{type:
 * 'supervised'}`): when the front says so (`{type: 'stop'}`) or is gone (the channel closed); a
 * signal that reaches it directly is reported to the front instead (`{type: 'signalled'}`), as
 * closing the API at once would fail requests the front is still passing on (api/start/supervisor.ts).
 */
import type { Logger } from './http/log.ts';

export interface StopMessage {
  type: 'stop' | 'supervised';
}
export interface SignalledMessage {
  type: 'signalled';
  signal: NodeJS.Signals;
}

export function onStopRequest(stop: () => void, logger: Logger): void {
  const signals = ['SIGINT', 'SIGTERM'] as const;
  if (!process.send) {
    for (const signal of signals) process.on(signal, stop);
    return;
  }
  let stopping = false;
  let supervised = false;
  const stopNow = () => {
    stopping = true;
    stop();
  };
  for (const signal of signals) {
    process.on(signal, () => {
      if (stopping) return;
      if (!supervised || !process.connected) return stopNow();
      logger.info(`${signal}: the front stops first and then stops this sidecar`);
      process.send!({ type: 'signalled', signal } satisfies SignalledMessage);
    });
  }
  process.on('message', (message: StopMessage) => {
    if (message?.type === 'supervised') supervised = true;
    if (message?.type === 'stop') stopNow();
  });
  // A parent that forked us with IPC (in its own process group) and died without stopping us
  // would leave us running unowned: its end closing is our stop.
  process.on('disconnect', stopNow);
}
