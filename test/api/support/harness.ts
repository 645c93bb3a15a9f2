/**
 * Builds a sidecar app for tests from real parts: a JSON store and a clients file in a fresh temp
 * directory (or, given a backend from ./backends.ts, that engine's store and clients), random keys,
 * a manual clock and a capturing logger.
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { H3 } from 'h3';
import { loadConfig, type Config } from '../../../api/config.ts';
import { createApp } from '../../../api/sidecar/app.ts';
import type { Clock } from '../../../api/sidecar/deps.ts';
import { hashSecret, newClientId, newClientSecret, type ClientDirectory, type ClientRecord } from '../../../api/sidecar/domain/clients.ts';
import type { Logger } from '../../../api/sidecar/http/log.ts';
import { FileClientDirectory, clientsPath, writeClients } from '../../../api/sidecar/store/json/clients-file.ts';
import type { TokenKeys } from '../../../api/sidecar/store/keys.ts';
import { JsonWaitlistStore, STORE_FILE_NAME } from '../../../api/sidecar/store/json/waitlist-store.ts';
import type { WaitlistRecord } from '../../../api/sidecar/domain/record.ts';
import type { WaitlistStore } from '../../../api/sidecar/store/waitlist-store.ts';
import { JSON_BACKEND, type TestBackend } from './backends.ts';

export const BASE_URL = 'https://waitlist.example';

export class ManualClock implements Clock {
  ms: number;
  constructor(start = Date.parse('2026-11-20T12:00:00.000Z')) {
    this.ms = start;
  }
  now(): number {
    return this.ms;
  }
  advance(seconds: number): void {
    this.ms += seconds * 1000;
  }
}

export class CapturingLogger implements Logger {
  readonly lines: string[] = [];
  info(line: string): void {
    this.lines.push(line);
  }
  error(line: string): void {
    this.lines.push(line);
  }
}

export interface Harness {
  app: H3;
  dir: string;
  dataFile: string;
  /** `size` only on the JSON store. */
  store: WaitlistStore & { readonly commits: number; readonly size?: number };
  engine: TestBackend['engine'];
  /** Every record as committed (JSON: the data file; PostgreSQL: a connection of its own). */
  durableRecords(): Promise<WaitlistRecord[]>;
  /** Makes every later write of the store fail. */
  breakStore(): Promise<void>;
  clock: ManualClock;
  keys: TokenKeys;
  logger: CapturingLogger;
  config: Config;
  clients: ClientDirectory;
  /** A production client with the stats scope. */
  client: { id: string; secret: string };
  close(): Promise<void>;
}

export function testConfig(env: Record<string, string> = {}): Config {
  return loadConfig({ BASE_URL, RATE_LIMIT_STANDARD: '1000', RATE_LIMIT_RELAXED: '1000', ...env });
}

export async function clientRecord(name: string, scopes: ClientRecord['scopes'] = ['waitlist:stats:read']) {
  const id = newClientId();
  const secret = newClientSecret();
  const record: ClientRecord = { id, name, createdAt: new Date().toISOString(), scopes, secretHash: await hashSecret(secret) };
  return { id, secret, record };
}

/**
 * The secret of every harness's client in this worker, hashed once: scrypt is slow on purpose, and
 * hundreds of harnesses each hashing a secret of their own cost more than most of the tests. Each
 * harness still has a client of its own (its own id, in its own store).
 */
let harnessSecret: Promise<{ secret: string; secretHash: string }> | undefined;

async function harnessClient(): Promise<Awaited<ReturnType<typeof clientRecord>>> {
  harnessSecret ??= (async () => {
    const secret = newClientSecret();
    return { secret, secretHash: await hashSecret(secret) };
  })();
  const { secret, secretHash } = await harnessSecret;
  const id = newClientId();
  return { id, secret, record: { id, name: 'test client', createdAt: new Date().toISOString(), scopes: ['waitlist:stats:read'], secretHash } };
}

export async function harness(env: Record<string, string> = {}, backend: TestBackend = JSON_BACKEND): Promise<Harness> {
  const dir = await mkdtemp(join(tmpdir(), 'sidecar-test-'));
  const config = testConfig({ DATA_DIR: dir, ...env });
  const client = await harnessClient();
  const other = await backend.open?.(config, client.record);
  const store = other?.store ?? (await JsonWaitlistStore.open(dir));
  if (!other) await writeClients(clientsPath(dir), [client.record]);
  const clients = other?.clients ?? (await new FileClientDirectory(clientsPath(dir)).load());
  const dataFile = join(dir, STORE_FILE_NAME);
  const clock = new ManualClock();
  const keys: TokenKeys = { production: randomBytes(32), sandbox: randomBytes(32) };
  const logger = new CapturingLogger();
  const app = createApp({ store, clock, keys, clients, config, logger });
  return {
    app,
    dir,
    dataFile,
    store,
    engine: backend.engine,
    durableRecords: other?.durableRecords ?? (async () => JSON.parse(await readFile(dataFile, 'utf8')).records),
    breakStore: other?.breakStore ?? (() => rm(dir, { recursive: true, force: true })),
    clock,
    keys,
    logger,
    config,
    clients,
    client: { id: client.id, secret: client.secret },
    async close() {
      await (other ?? store).close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/**
 * The (method, path) pairs an app built by createApp really serves, read back from its router
 * (the catch-all entries that answer 405 are left out): the OpenAPI tests compare them with the
 * published document, the sidecar tests with ROUTES.
 */
export function servedRoutes(app: H3): { method: string; path: string }[] {
  return app['~routes']
    .filter((route) => route.method && route.route)
    .map((route) => ({ method: route.method!, path: route.route! }));
}
