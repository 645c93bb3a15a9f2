/**
 * How an operator command reaches the waitlist (docs/api.md, "The JSON store"): PostgreSQL directly;
 * JSON through the running sidecar, its single writer, or with none the last commit (reads) or the
 * store opened under the data-directory lock (writes).
 */
import { stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { Config } from '../../config.ts';
import { openBackend } from '../store/open-backend.ts';
import { StartupError } from '../store/errors.ts';
import { JsonWaitlistStore, STORE_FILE_NAME } from '../store/json/waitlist-store.ts';
import { acquireLock, dataDirLockPath, LockHeldError } from '../store/lock.ts';
import type { InvitationStore, OperatorStore } from '../store/waitlist-store.ts';
import { SidecarChannel } from './client.ts';
import { operatorSocketPath } from './protocol.ts';

export interface OperatorAccess {
  store: OperatorStore & InvitationStore;
  /** Where the data lives, for messages (never a password). */
  where: string;
  close(): Promise<void>;
}

export async function openForOperator(config: Config, intent: 'read' | 'write'): Promise<OperatorAccess> {
  if (config.DATABASE_URL) {
    const backend = await openBackend(config, { patient: true });
    return { store: backend.store, where: 'The PostgreSQL database', close: () => backend.close() };
  }
  const dataDir = resolve(config.DATA_DIR);
  const path = join(dataDir, STORE_FILE_NAME);
  if (!(await stat(path).catch(() => undefined))) {
    throw new StartupError(`There is no waitlist data file at ${path}. Check DATA_DIR (the sidecar creates the file when it first starts).`);
  }
  const channel = new SidecarChannel(operatorSocketPath(dataDir));
  if (await channel.reachable()) return { store: channel, where: path, close: () => channel.close() };
  if (intent === 'read') {
    const store = await JsonWaitlistStore.readOnly(dataDir);
    if (!store) throw new StartupError(`The waitlist data file ${path} disappeared while it was being read.`);
    return { store, where: path, close: () => store.close() };
  }
  const lock = await acquireLock(dataDirLockPath(dataDir), `The data directory ${dataDir}`).catch((error: unknown) => {
    if (!(error instanceof LockHeldError)) throw error;
    throw new StartupError(
      `The data directory ${dataDir} is in use by process ${error.owner}, which does not answer on ${channel.socketPath} ` +
        '(another operator command; a sidecar too old for the operator channel; or a DATA_DIR path too long for a socket, ' +
        'which the sidecar warned about at start). Nothing was changed: try again when it has finished, or stop the service.',
    );
  });
  try {
    const store = await JsonWaitlistStore.open(dataDir);
    return {
      store,
      where: path,
      async close() {
        await store.close();
        await lock.release();
      },
    };
  } catch (error) {
    await lock.release();
    throw error;
  }
}
