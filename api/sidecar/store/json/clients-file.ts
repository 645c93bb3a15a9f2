/**
 * The JSON engine's production OAuth clients: DATA_DIR/clients.json, written by `npm run clients`
 * under its own lock and read by the sidecar on each token request, so created and deleted clients
 * count at once (docs/api.md); beside the request's scrypt run, reading a small file costs nothing.
 */
import { mkdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { z } from 'zod';
import { authenticateAgainst, ClientRecord, type ClientRegistry } from '../../domain/clients.ts';
import { formatFile } from '../durable-file.ts';
import { acquireLock } from '../lock.ts';

export const CLIENTS_FILE_NAME = 'clients.json';

const clientsFile = formatFile(
  'waitlist-clients',
  { clients: z.array(ClientRecord) },
  (path) =>
    `The clients file ${path} is corrupt or not a clients file; it has been left untouched. ` +
    'Restore it from a backup, or move it away and create the clients again with npm run clients -- create <name>.',
);

export function clientsPath(dataDir: string): string {
  return join(dataDir, CLIENTS_FILE_NAME);
}

/** The clients in the file; [] when there is no file. Throws StartupError on a corrupt file. */
export async function readClients(path: string): Promise<ClientRecord[]> {
  return (await clientsFile.read(path))?.clients ?? [];
}

export function writeClients(path: string, clients: readonly ClientRecord[]): Promise<void> {
  return clientsFile.write(path, { clients });
}

/** The production clients, following the file as the operator changes it. */
export class FileClientDirectory implements ClientRegistry {
  readonly #path: string;

  constructor(path: string) {
    this.#path = path;
  }

  /** Reads the file now (at start-up), so a corrupt file stops the start. */
  async load(): Promise<this> {
    await this.list();
    return this;
  }

  /** A corrupt file fails the request (500) rather than keeping clients the operator deleted. */
  async authenticate(id: string, secret: string) {
    return authenticateAgainst(await this.list(), id, secret);
  }

  async list(): Promise<ClientRecord[]> {
    return readClients(this.#path);
  }

  create(record: ClientRecord): Promise<void> {
    return this.#change((clients) => [...clients, record]).then(() => {});
  }

  delete(id: string): Promise<boolean> {
    return this.#change((clients) => clients.filter((client) => client.id !== id));
  }

  /** Read, change, write under DATA_DIR/clients.lock, which serialises concurrent operator runs. */
  async #change(edit: (clients: ClientRecord[]) => ClientRecord[]): Promise<boolean> {
    await mkdir(dirname(this.#path), { recursive: true, mode: 0o700 });
    const lock = await acquireLock(join(dirname(this.#path), 'clients.lock'), `The clients file ${this.#path}`);
    try {
      const before = await readClients(this.#path);
      const after = edit(before);
      if (after.length === before.length) return false;
      await writeClients(this.#path, after);
      return true;
    } finally {
      await lock.release();
    }
  }
}
