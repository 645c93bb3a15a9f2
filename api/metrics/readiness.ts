/**
 * What readiness reports of one engine in use (GET /readyz on the metrics listener, the
 * waitlist_engine_up gauge): its name, whether it can do its work, since when, and the last error.
 */
export type EngineName = 'postgres' | 'redis' | 'json';

export interface EngineState {
  engine: EngineName;
  state: 'up' | 'down';
  /** When the engine entered this state (ISO 8601), or when the process started using it. */
  since: string;
  /** The cause of the latest failure (api/sidecar/health/engine-health.ts describeCause), null when there was none. */
  lastError: string | null;
}

/**
 * Engines the product serves without: while Redis is away, each instance counts rate limits by
 * itself (docs/api.md), so every request is still answered as the contract says.
 */
const SERVES_WITHOUT: ReadonlySet<EngineName> = new Set(['redis']);

/**
 * The sidecar's answer to "can this instance serve?": ready unless an engine that requests need
 * is down (PostgreSQL, the JSON store's disk); a down engine the product serves without is named
 * in `degraded` and leaves the instance ready, so a balancer does not take every instance out at once.
 */
export function readinessOf(engines: readonly EngineState[]) {
  const down = engines.filter((engine) => engine.state === 'down');
  return {
    ready: down.every((engine) => SERVES_WITHOUT.has(engine.engine)),
    degraded: down.filter((engine) => SERVES_WITHOUT.has(engine.engine)).map((engine) => engine.engine),
    engines: [...engines],
  };
}

export type Readiness = ReturnType<typeof readinessOf>;
