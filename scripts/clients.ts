/**
 * Operator command for the production OAuth clients (DATA_DIR/clients.json):
 *
 *   npm run clients -- create <name>   prints a new client id and secret, once
 *   npm run clients -- list            id, name, created (never secrets)
 *   npm run clients -- delete <id>
 *
 * Secrets are stored only as salted scrypt hashes (mode 0600). A running sidecar sees the change
 * on its next token request; no restart is needed. The sandbox client is built in and not listed.
 */
import { mkdir } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { configOrExit } from '../api/config.ts';
import { SCOPES } from '../api/contract/index.ts';
import { hashSecret, newClientId, newClientSecret, type ClientRecord } from '../api/sidecar/domain/clients.ts';
import { clientsPath, readClients, writeClients } from '../api/sidecar/store/json/clients-file.ts';
import { StartupError } from '../api/sidecar/store/errors.ts';
import { acquireLock } from '../api/sidecar/store/lock.ts';

const USAGE = 'usage: npm run clients -- create <name> | list | delete <id>';

async function main(args: string[]): Promise<number> {
  const [command, ...rest] = args;
  if (!['create', 'list', 'delete'].includes(command ?? '')) {
    console.error(USAGE);
    return 2;
  }
  const dataDir = resolve(configOrExit().DATA_DIR);
  const path = clientsPath(dataDir);
  if (command === 'list') return list(await readClients(path));

  await mkdir(dataDir, { recursive: true, mode: 0o700 });
  // Serialises concurrent runs of this command; the sidecar only reads the file.
  const lock = await acquireLock(join(dataDir, 'clients.lock'), `The clients file ${path}`);
  try {
    const clients = await readClients(path);
    if (command === 'create') return await create(path, clients, rest.join(' ').trim());
    return await remove(path, clients, rest[0] ?? '');
  } finally {
    await lock.release();
  }
}

function list(clients: readonly ClientRecord[]): number {
  if (clients.length === 0) console.log('No production clients. Create one with: npm run clients -- create <name>');
  for (const client of clients) console.log(`${client.id}\t${client.createdAt}\t${client.name}`);
  return 0;
}

async function create(path: string, clients: ClientRecord[], name: string): Promise<number> {
  if (!name) {
    console.error(`A client needs a name. ${USAGE}`);
    return 2;
  }
  const id = newClientId();
  const secret = newClientSecret();
  const record: ClientRecord = { id, name, createdAt: new Date().toISOString(), scopes: [...SCOPES], secretHash: await hashSecret(secret) };
  await writeClients(path, [...clients, record]);
  console.log(`Created client "${name}".`);
  console.log(`client_id: ${id}`);
  console.log(`client_secret: ${secret}`);
  console.log('The secret is shown only this once and cannot be recovered: store it now.');
  return 0;
}

async function remove(path: string, clients: ClientRecord[], id: string): Promise<number> {
  const kept = clients.filter((client) => client.id !== id);
  if (!id || kept.length === clients.length) {
    console.error(`No client with id "${id}". See npm run clients -- list`);
    return 1;
  }
  await writeClients(path, kept);
  console.log(`Deleted client ${id}. Its tokens stay valid until they expire (at most 15 minutes).`);
  return 0;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error instanceof StartupError ? error.message : `clients: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  },
);
