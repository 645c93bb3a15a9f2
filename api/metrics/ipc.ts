/**
 * Sidecar-side metrics reach the front's metrics listener over the supervisor's IPC channel, and
 * only when scraped: the front asks, the sidecar answers with its registry as Prometheus text.
 * Nothing crosses the channel on the request path.
 */
import type { ChildProcess } from 'node:child_process';
import type { Registry } from 'prom-client';

interface MetricsRequest {
  type: 'metrics?';
  id: number;
}
interface MetricsAnswer {
  type: 'metrics';
  id: number;
  text: string;
}

let nextId = 1;

/** The child's registry text, or undefined when it does not answer within timeoutMs. */
export function askMetrics(child: ChildProcess, timeoutMs: number): Promise<string | undefined> {
  const id = nextId++;
  return new Promise((resolve) => {
    const done = (text: string | undefined) => {
      clearTimeout(timer);
      child.off('message', onMessage);
      child.off('exit', onExit);
      resolve(text);
    };
    const onMessage = (message: MetricsAnswer) => {
      if (message?.type === 'metrics' && message.id === id) done(message.text);
    };
    const onExit = () => done(undefined);
    const timer = setTimeout(() => done(undefined), timeoutMs);
    child.on('message', onMessage);
    child.once('exit', onExit);
    const request: MetricsRequest = { type: 'metrics?', id };
    if (!child.connected) return done(undefined);
    child.send(request, (error) => error && done(undefined));
  });
}

/** In the sidecar: answer the parent's metrics requests with this registry. */
export function answerMetrics(registry: Registry): void {
  process.on('message', (message: MetricsRequest) => {
    if (message?.type !== 'metrics?') return;
    void registry.metrics().then((text) => {
      const answer: MetricsAnswer = { type: 'metrics', id: message.id, text };
      if (process.connected) process.send?.(answer);
    });
  });
}
