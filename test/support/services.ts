/**
 * What test files share in a run, started on the first file's demand and stopped after the last
 * (test/support/global-setup.ts): the site built once, the stack serving it, one PostgreSQL and one
 * Redis. A file asks with need(name); the answer comes once the service is up.
 */
import { inject } from 'vitest';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Base URL of the endpoint that starts the run's shared services on demand. */
    services: string;
  }
}

export type Service = 'site' | 'stack' | 'postgres' | 'redis';

/** What an engine's answer holds: where the server listens, its PID, and (Redis) a database number of the caller's own. */
export interface SharedEngineInfo {
  port: number;
  pid: number;
  database?: number;
}

/** Waits until the run's `name` is up (starting it if no file has yet) and returns what it answers. */
export async function need<T = unknown>(name: Service): Promise<T> {
  const endpoint = inject('services');
  if (!endpoint) throw new Error('no shared services: run the tests with test/vitest.config.ts (its global setup serves them)');
  const res = await fetch(`${endpoint}/${name}`);
  if (!res.ok) throw new Error(`the run's ${name} did not start:\n${await res.text()}`);
  return (await res.json()) as T;
}
