/**
 * A steady sign-up load for outage tests: `clients` loops per target, each sending one sign-up
 * (a fresh address every time) `pauseMs` after the answer to the one before, recording when it was
 * sent, how long it took and what came back. A request that has no answer after `hangMs` is
 * recorded as a hang (status 0). The pause keeps the load steady rather than as fast as the
 * machine goes: during an outage the answers come back in a millisecond, and back-to-back clients
 * would spend the test's CPU on thousands of identical 500s.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { API_PATHS } from '../../api/contract/index.ts';

export interface Answer {
  email: string;
  target: string;
  sentAt: number;
  ms: number;
  /** 0: no answer within hangMs (or the connection failed). */
  status: number;
  error?: string;
}

export interface Load {
  /** Answers received so far. */
  answered(): number;
  /** Stops sending and resolves with every answer once the requests in flight are back. */
  stop(): Promise<Answer[]>;
}

let runs = 0;

export function signUpLoad(targets: readonly string[], clients = 4, { hangMs = 5_000, pauseMs = 25 } = {}): Load {
  const run = ++runs;
  const answers: Answer[] = [];
  let stopped = false;
  let n = 0;
  const loop = async (target: string) => {
    while (!stopped) {
      const email = `load-${process.pid}-${run}-${++n}@example.org`;
      const sentAt = performance.now();
      const answer: Answer = { email, target, sentAt, ms: 0, status: 0 };
      try {
        const res = await fetch(new URL(API_PATHS.waitlist, target), {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ email, consent: true }),
          signal: AbortSignal.timeout(hangMs),
        });
        answer.status = res.status;
        if (!res.ok) answer.error = ((await res.json()) as { error?: string }).error;
        else await res.arrayBuffer();
      } catch (error) {
        answer.error = error instanceof Error ? error.name : String(error);
      }
      answer.ms = performance.now() - sentAt;
      answers.push(answer);
      await sleep(pauseMs);
    }
  };
  const loops = targets.flatMap((target) => Array.from({ length: clients }, () => loop(target)));
  return {
    answered: () => answers.length,
    async stop() {
      stopped = true;
      await Promise.all(loops);
      return answers;
    },
  };
}
