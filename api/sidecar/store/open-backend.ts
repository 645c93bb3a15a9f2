/** The storage engine, chosen once from the configuration: JSON files in DATA_DIR, or PostgreSQL (loaded only then) with DATABASE_URL. */
import { resolve } from 'node:path';
import type { Config } from '../../config.ts';
import type { ClientRegistry } from '../domain/clients.ts';
import type { Backend, BackendOptions } from './backend.ts';

export async function openBackend(config: Config, options: BackendOptions = {}): Promise<Backend> {
  if (config.DATABASE_URL) {
    const { openPostgresBackend } = await import('./postgres/backend.ts');
    return openPostgresBackend(config, options);
  }
  const { openJsonBackend } = await import('./json/backend.ts');
  return openJsonBackend(config, options);
}

/** The clients alone, for `npm run clients`: the JSON clients file has its own lock, so no data-directory lock. */
export async function openClientRegistry(config: Config): Promise<{ clients: ClientRegistry; close(): Promise<void> }> {
  if (config.DATABASE_URL) {
    const backend = await openBackend(config);
    return { clients: backend.clients, close: () => backend.close() };
  }
  const { clientsPath, FileClientDirectory } = await import('./json/clients-file.ts');
  return { clients: await new FileClientDirectory(clientsPath(resolve(config.DATA_DIR))).load(), close: async () => {} };
}
