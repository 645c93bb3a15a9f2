/**
 * The production OAuth clients: DATA_DIR/clients.json, written by `npm run clients` (scripts/clients.ts)
 * and read by the sidecar. The sidecar checks the file's identity (inode, size, mtime) on every token
 * request and re-reads it when it changed, so created and deleted clients count at once, without a
 * restart; a stat costs microseconds next to the scrypt run of every authentication.
 */
import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { authenticateAgainst, ClientRecord, type ClientDirectory } from '../domain/clients.ts';
import { replaceFileDurably } from './durable-file.ts';
import { readSmallJsonFile } from './small-json-file.ts';

export const CLIENTS_FILE_NAME = 'clients.json';

const ClientsFile = z
  .object({
    format: z.literal('waitlist-clients'),
    version: z.literal(1),
    clients: z.array(ClientRecord),
  })
  .strict();

export function clientsPath(dataDir: string): string {
  return join(dataDir, CLIENTS_FILE_NAME);
}

/** The clients in the file; [] when there is no file. Throws StartupError on a corrupt file. */
export async function readClients(path: string): Promise<ClientRecord[]> {
  const file = await readSmallJsonFile(
    path,
    ClientsFile,
    `The clients file ${path} is corrupt or not a clients file; it has been left untouched. ` +
      'Restore it from a backup, or move it away and create the clients again with npm run clients -- create <name>.',
  );
  return file?.clients ?? [];
}

export async function writeClients(path: string, clients: readonly ClientRecord[]): Promise<void> {
  const file = { format: 'waitlist-clients', version: 1, clients };
  await replaceFileDurably(path, [Buffer.from(`${JSON.stringify(file, null, 2)}\n`)]);
}

/** The production client directory, following the file as the operator changes it. */
export class FileClientDirectory implements ClientDirectory {
  readonly #path: string;
  #identity = '';
  #clients: ClientRecord[] = [];

  constructor(path: string) {
    this.#path = path;
  }

  /** Loads the file now (at start-up), so a corrupt file stops the start. */
  async load(): Promise<this> {
    await this.#refresh();
    return this;
  }

  async authenticate(id: string, secret: string) {
    await this.#refresh();
    return authenticateAgainst(this.#clients, id, secret);
  }

  async #refresh(): Promise<void> {
    const info = await stat(this.#path).catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return undefined;
      throw error;
    });
    const identity = info ? `${info.ino}:${info.size}:${info.mtimeMs}` : 'absent';
    if (identity === this.#identity) return;
    // A corrupt file fails the request (500) rather than keeping clients the operator deleted.
    this.#clients = await readClients(this.#path);
    this.#identity = identity;
  }
}
