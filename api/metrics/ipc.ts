/**
 * Sidecar-side metrics reach the front's metrics listener over the supervisor's IPC channel, and
 * only when scraped: the front asks, the sidecar answers with its registry as Prometheus text.
 * Readiness (GET /readyz) crosses the same way: the front asks, the sidecar answers with the state
 * of each engine it uses. Nothing crosses the channel on the request path.
 */
import type { ChildProcess } from 'node:child_process';
import { on } from 'node:events';
import type { Readiness } from './readiness.ts';

interface Answers {
  metrics: string;
  readiness: Readiness;
}
export type Question = keyof Answers;

/** `{type: 'metrics?', id}` asks; `{type: 'metrics', id, value}` answers. */
interface Message {
  type: string;
  id: number;
  value?: unknown;
}

let nextId = 1;

/**
 * In the supervisor: one question to the child over IPC; undefined when it exits, is gone, or is
 * slower than timeoutMs (for readiness: then it is not ready).
 */
export async function ask<Q extends Question>(child: ChildProcess, type: Q, timeoutMs: number): Promise<Answers[Q] | undefined> {
  if (!child.connected) return undefined;
  const id = nextId++;
  // Listening before asking; a child that exits or drops the channel ends the wait.
  const messages = on(child, 'message', { signal: AbortSignal.timeout(timeoutMs), close: ['exit', 'disconnect'] });
  child.send({ type: `${type}?`, id } satisfies Message, () => {});
  try {
    for await (const [message] of messages as AsyncIterable<[Message]>) {
      if (message?.type === type && message.id === id) return message.value as Answers[Q];
    }
  } catch {
    // Slower than timeoutMs.
  }
  return undefined;
}

/** In the sidecar: answer the parent's questions of this type with what `produce` gives. */
export function answer<Q extends Question>(type: Q, produce: () => Answers[Q] | Promise<Answers[Q]>): void {
  process.on('message', async (message: Message) => {
    if (message?.type !== `${type}?`) return;
    const value = await produce();
    if (process.connected) process.send?.({ type, id: message.id, value } satisfies Message);
  });
}
