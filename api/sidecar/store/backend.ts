/** A storage engine as everything above the seam sees it: the waitlist, the OAuth clients and the token keys. */
import type { ClientRegistry } from '../domain/clients.ts';
import type { EngineHealth } from '../health/engine-health.ts';
import type { Logger } from '../http/log.ts';
import type { TokenKeys } from './keys.ts';
import type { CommitInfo, WaitlistStore } from './waitlist-store.ts';

export type Engine = 'json' | 'postgres';

export interface Backend {
  readonly engine: Engine;
  readonly store: WaitlistStore;
  /** The production OAuth clients (the token route authenticates against them; the CLI manages them). */
  readonly clients: ClientRegistry;
  readonly keys: TokenKeys;
  /** Whether the engine can do its work now: readiness and waitlist_engine_up read it, and it logs the outages. */
  readonly health: EngineHealth;
  /** One line for the start-up log: engine, where (never a password), how many records. */
  describe(): Promise<string>;
  /** Closes the store (pending writes finish), then everything else the backend holds. */
  close(): Promise<void>;
}

export interface BackendOptions {
  /** One-line warnings found while opening (for example: the JSON store is past its comfortable size). */
  warn?(line: string): void;
  /** Called after each durable write of the waitlist (metrics). */
  onCommit?(info: CommitInfo): void;
  /** Where the engine's health tells its outages (default: nowhere, for operator commands). */
  logger?: Logger;
  /** For the sidecar: also serve the operator channel where the engine needs one (JSON: operator/server.ts). */
  serveOperator?: boolean;
  /**
   * For operator commands, which answer no waiting client: wait for the engine rather than take
   * their own slowness for an engine gone (PostgreSQL: start-up timeouts, no probe while it answers).
   */
  patient?: boolean;
}

