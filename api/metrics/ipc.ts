/**
 * Sidecar-side metrics reach the front's metrics listener over the supervisor's IPC channel, and
 * only when scraped: the front asks, the sidecar answers with its registry as Prometheus text.
 * Readiness (GET /readyz) crosses the same way: the front asks, the sidecar answers with the state
 * of each engine it uses. Nothing crosses the channel on the request path.
 */
import type { ChildProcess } from 'node:child_process';
import type { Registry } from 'prom-client';
import type { Readiness } from './readiness.ts';

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
  return ask(child, 'metrics', timeoutMs, (message: MetricsAnswer) => message.text);
}

/** One question to the child over IPC; undefined when it exits, is gone, or is slower than timeoutMs. */
function ask<A extends { type: string; id: number }, T>(child: ChildProcess, type: string, timeoutMs: number, value: (answer: A) => T): Promise<T | undefined> {
  const id = nextId++;
  return new Promise((resolve) => {
    const done = (result: T | undefined) => {
      clearTimeout(timer);
      child.off('message', onMessage);
      child.off('exit', onExit);
      resolve(result);
    };
    const onMessage = (message: A) => {
      if (message?.type === type && message.id === id) done(value(message));
    };
    const onExit = () => done(undefined);
    const timer = setTimeout(() => done(undefined), timeoutMs);
    child.on('message', onMessage);
    child.once('exit', onExit);
    if (!child.connected) return done(undefined);
    child.send({ type: `${type}?`, id }, (error) => error && done(undefined));
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

interface ReadinessRequest {
  type: 'readiness?';
  id: number;
}
interface ReadinessAnswer {
  type: 'readiness';
  id: number;
  readiness: Readiness;
}

/** The child's readiness, or undefined when it does not answer within timeoutMs (then it is not ready). */
export function askReadiness(child: ChildProcess, timeoutMs: number): Promise<Readiness | undefined> {
  return ask(child, 'readiness', timeoutMs, (message: ReadinessAnswer) => message.readiness);
}

/** In the sidecar: answer the parent's readiness requests. */
export function answerReadiness(read: () => Readiness): void {
  process.on('message', (message: ReadinessRequest) => {
    if (message?.type !== 'readiness?' || !process.connected) return;
    const answer: ReadinessAnswer = { type: 'readiness', id: message.id, readiness: read() };
    process.send?.(answer);
  });
}
