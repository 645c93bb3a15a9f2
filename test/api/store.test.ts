/** The JSON-file store, keys file and data-directory lock, on real files in temp directories. */
import { spawnSync } from 'node:child_process';
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { API_PATHS } from '../../api/contract/index.ts';
import { StartupError } from '../../api/sidecar/store/errors.ts';
import { KEYS_FILE_NAME, loadOrCreateKeys } from '../../api/sidecar/store/json/keys-file.ts';
import { acquireLock } from '../../api/sidecar/store/lock.ts';
import { JsonWaitlistStore, STORE_FILE_NAME } from '../../api/sidecar/store/json/waitlist-store.ts';
import { send } from '../support/request.ts';
import { harness } from './support/harness.ts';
import { jsonPost } from './support/requests.ts';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'sidecar-store-'));
});
afterEach(() => rm(dir, { recursive: true, force: true }));

const signup = (email: string) => ({ email, consent: true as const });
async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const all: T[] = [];
  for await (const item of items) all.push(item);
  return all;
}
const mode = async (path: string) => (await stat(path)).mode & 0o777;

describe('waitlist store', () => {
  it('store: a new data file is created at once, mode 0600, and a reopened store has every record', async () => {
    const store = await JsonWaitlistStore.open(dir);
    const path = join(dir, STORE_FILE_NAME);
    expect(await mode(path)).toBe(0o600);
    expect(JSON.parse(await readFile(path, 'utf8'))).toEqual({ format: 'waitlist-store', version: 1, records: [] });
    await store.upsert({ ...signup('a@example.com'), role: 'data' }, 'json', '2026-11-20T10:00:00.000Z');
    await store.upsert(signup('b@example.com'), 'form', '2026-11-20T10:00:01.000Z');
    await store.close();
    const again = await JsonWaitlistStore.open(dir);
    expect((await collect(again.export())).map((r) => [r.email, r.role])).toEqual([['a@example.com', 'data'], ['b@example.com', undefined]]);
    expect(await mode(path)).toBe(0o600);
  });

  it('store: 200 concurrent distinct sign-ups are all in the file once answered, written by far fewer commits', async () => {
    const h = await harness();
    try {
      const emails = Array.from({ length: 200 }, (_, i) => `person${i}@example.com`);
      const before = h.store.commits;
      const answers = await Promise.all(emails.map((email) => send(h.app, API_PATHS.waitlist, jsonPost(signup(email)))));
      expect(answers.every((a) => a.status === 200)).toBe(true);
      const stored = JSON.parse(await readFile(h.dataFile, 'utf8')).records.map((r: { email: string }) => r.email);
      expect(stored.sort()).toEqual([...emails].sort());
      expect(h.store.commits - before).toBeLessThan(20);
    } finally {
      await h.close();
    }
  });

  it('store: a commit holds the changes of the sign-ups that arrived while the previous one was writing', async () => {
    const store = await JsonWaitlistStore.open(dir);
    const first = store.upsert(signup('first@example.com'), 'json', '2026-11-20T10:00:00.000Z');
    await new Promise((done) => setImmediate(done));
    const rest = Array.from({ length: 50 }, (_, i) => store.upsert(signup(`later${i}@example.com`), 'json', '2026-11-20T10:00:00.000Z'));
    await Promise.all([first, ...rest]);
    expect(store.commits).toBeLessThanOrEqual(3);
    expect(JSON.parse(await readFile(join(dir, STORE_FILE_NAME), 'utf8')).records).toHaveLength(51);
    await store.close();
  });

  const refused: [string, string][] = [
    ['not JSON (truncated)', '{"format":"waitlist-store","version":1,"records":[{"email":"a@exa'],
    ['empty', ''],
    ['a foreign JSON file', '{"users":[]}'],
    ['another version', '{"format":"waitlist-store","version":2,"records":[]}'],
    ['an invalid record', '{"format":"waitlist-store","version":1,"records":[{"email":"a@example.com"}]}'],
    ['one address twice', JSON.stringify({ format: 'waitlist-store', version: 1, records: [1, 2].map(() => ({ email: 'a@example.com', createdAt: '2026-11-20T10:00:00.000Z', consentAt: '2026-11-20T10:00:00.000Z', updatedAt: '2026-11-20T10:00:00.000Z', lang: 'en', consent: { form: 'api', channel: 'json', lang: 'en', textVersion: 'v' } })) })],
  ];
  for (const [why, content] of refused) {
    it(`store: a data file that is ${why} is refused with a message and left untouched`, async () => {
      const path = join(dir, STORE_FILE_NAME);
      await writeFile(path, content);
      const error = await JsonWaitlistStore.open(dir).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(StartupError);
      expect((error as Error).message).toContain(path);
      expect(await readFile(path, 'utf8')).toBe(content);
    });
  }

  it('store: the temporary file of a write cut short is removed on open', async () => {
    await (await JsonWaitlistStore.open(dir)).close();
    const temp = join(dir, `.${STORE_FILE_NAME}.tmp`);
    await writeFile(temp, '{"format":"waitlist-st');
    const store = await JsonWaitlistStore.open(dir);
    await expect(stat(temp)).rejects.toThrow();
    expect(await store.count()).toBe(0);
  });
});

describe('token keys', () => {
  it('keys: generated once (32 bytes, production and sandbox different, mode 0600) and reused', async () => {
    const first = await loadOrCreateKeys(dir, {});
    const path = join(dir, KEYS_FILE_NAME);
    const bytes = await readFile(path);
    expect(await mode(path)).toBe(0o600);
    expect(first.production).toHaveLength(32);
    expect(Buffer.from(first.production).equals(Buffer.from(first.sandbox))).toBe(false);
    const second = await loadOrCreateKeys(dir, {});
    expect(second).toEqual(first);
    expect(await readFile(path)).toEqual(bytes);
  });

  it('keys: a configured key wins; with both configured no key file is written', async () => {
    const production = new Uint8Array(32).fill(1);
    const sandbox = new Uint8Array(32).fill(2);
    expect(await loadOrCreateKeys(dir, { TOKEN_KEY_PRODUCTION: production, TOKEN_KEY_SANDBOX: sandbox })).toEqual({ production, sandbox });
    await expect(stat(join(dir, KEYS_FILE_NAME))).rejects.toThrow();
  });

  it('keys: the same key for production and sandbox is refused', async () => {
    const key = new Uint8Array(32).fill(3);
    await expect(loadOrCreateKeys(dir, { TOKEN_KEY_PRODUCTION: key, TOKEN_KEY_SANDBOX: key })).rejects.toBeInstanceOf(StartupError);
  });

  it('keys: a corrupt key file is refused and left untouched', async () => {
    const path = join(dir, KEYS_FILE_NAME);
    await writeFile(path, '{"format":"waitlist-token-keys","version":1,"production":"short"}');
    await expect(loadOrCreateKeys(dir, {})).rejects.toBeInstanceOf(StartupError);
    expect(await readFile(path, 'utf8')).toContain('short');
  });
});

describe('data-directory lock', () => {
  it('lock: a second holder is refused with the owner named; after release it can be taken again', async () => {
    const path = join(dir, 'sidecar.lock');
    const lock = await acquireLock(path, 'The data directory');
    const error = await acquireLock(path, 'The data directory').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StartupError);
    expect((error as Error).message).toContain(`process ${process.pid}`);
    await lock.release();
    await (await acquireLock(path, 'The data directory')).release();
  });

  it('lock: a lock left by a process that no longer runs is taken over', async () => {
    const path = join(dir, 'sidecar.lock');
    const dead = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))']).stdout.toString();
    await writeFile(path, `${dead}\n`);
    const lock = await acquireLock(path, 'The data directory');
    expect((await readFile(path, 'utf8')).trim()).toBe(String(process.pid));
    await lock.release();
    await expect(stat(path)).rejects.toThrow();
  });
});
