/**
 * The storage engine, chosen once from the configuration (issue 11): the JSON files in DATA_DIR
 * (the default, store/json/) or PostgreSQL when DATABASE_URL is set (store/postgres/, loaded only
 * then, so the driver is never imported without it). Everything above this seam sees a Backend.
 */
import type { Config } from '../../config.ts';
import type { ClientRegistry } from '../domain/clients.ts';
import type { TokenKeys } from './keys.ts';
import type { CommitInfo, WaitlistStore } from './waitlist-store.ts';

export type Engine = 'json' | 'postgres';

export interface Backend {
  readonly engine: Engine;
  readonly store: WaitlistStore;
  /** The production OAuth clients (the token route authenticates against them; the CLI manages them). */
  readonly clients: ClientRegistry;
  readonly keys: TokenKeys;
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
  /** For the sidecar: also serve the operator channel where the engine needs one (JSON: operator/server.ts). */
  serveOperator?: boolean;
}

export async function openBackend(config: Config, options: BackendOptions = {}): Promise<Backend> {
  if (config.DATABASE_URL) {
    const { openPostgresBackend } = await import('./postgres/backend.ts');
    return openPostgresBackend(config, options);
  }
  const { openJsonBackend } = await import('./json/backend.ts');
  return openJsonBackend(config, options);
}

/**
 * The clients alone, for `npm run clients`: the JSON engine needs no lock and no waitlist for
 * them (the file has its own lock); PostgreSQL opens its backend, which is cheap.
 */
export async function openClientRegistry(config: Config): Promise<{ clients: ClientRegistry; close(): Promise<void> }> {
  if (config.DATABASE_URL) {
    const backend = await openBackend(config);
    return { clients: backend.clients, close: () => backend.close() };
  }
  const { openJsonClients } = await import('./json/backend.ts');
  return { clients: await openJsonClients(config), close: async () => {} };
}
