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
  /** The cause of the latest failure (api/sidecar/health/unavailable.ts describeCause), null when there was none. */
  lastError: string | null;
}

/** The sidecar's answer to "are you ready?": ready when every engine it uses is up. */
export interface Readiness {
  ready: boolean;
  engines: EngineState[];
}

export function readinessOf(engines: readonly EngineState[]): Readiness {
  return { ready: engines.every((engine) => engine.state === 'up'), engines: [...engines] };
}
