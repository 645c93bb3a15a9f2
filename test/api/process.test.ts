/**
 * The real process: `node api/sidecar/main.ts` with a temp DATA_DIR and an ephemeral port.
 * Start-up, refusal to start, graceful stop, a SIGKILL during a sign-up flood, keys across restarts,
 * and the operator's clients command against a running sidecar.
 */
import { request } from 'node:http';
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, it as base } from 'vitest';
import { API_PATHS } from '../../api/contract/index.ts';
import { KEYS_FILE_NAME } from '../../api/sidecar/store/json/keys-file.ts';
import { storeCodec } from '../../api/sidecar/store/json/store-file.ts';
import { STORE_FILE_NAME } from '../../api/sidecar/store/json/waitlist-store.ts';
import { send } from '../support/request.ts';
import { runToEnd, startSidecar, type Running } from './support/process.ts';
import { formPost, jsonPost, plainBasic } from './support/requests.ts';

const running: Running[] = [];

async function start(dir: string, env: Record<string, string> = {}): Promise<Running> {
  const sidecar = await startSidecar({ DATA_DIR: dir, RATE_LIMIT_STANDARD: '100000', RATE_LIMIT_RELAXED: '100000', ...env });
  running.push(sidecar);
  return sidecar;
}

/**
 * One DATA_DIR through a sidecar's life, walked in order (each start of a node process costs seconds
 * on a busy 2-core machine): the first sidecar serves, refuses a second one, sees the clients
 * command's changes and stops on SIGTERM; a second is SIGKILLed in a flood; a third takes the stale
 * lock over and accepts the first one's token.
 */
describe('sidecar process, one DATA_DIR from first start to restart', { timeout: 60_000 }, () => {
  let dir: string;
  let first: Running;
  /** The keys file and a sandbox token as the first run made them. */
  let firstKeys: Buffer;
  let firstToken: string;
  /** The sidecar that took the stale lock over after the SIGKILL. */
  let restarted: Running;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'sidecar-process-'));
    first = await start(dir, { LOG_REQUESTS: 'true' });
    firstKeys = await readFile(join(dir, KEYS_FILE_NAME));
    const token = await send(first.url, '/sandbox/api/v1/oauth/token', formPost('grant_type=client_credentials', { authorization: plainBasic('sandbox', 'sandbox') }));
    firstToken = token.body.access_token;
  });
  afterAll(async () => {
    for (const r of running.splice(0)) {
      if (r.child.exitCode === null && r.child.signalCode === null) r.child.kill('SIGKILL');
      await r.exited;
    }
    await rm(dir, { recursive: true, force: true });
  });

  it('process: reports ready over IPC with its URL, serves and holds the data-directory lock', async () => {
    expect(first.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect((await send(first.url, API_PATHS.status)).status).toBe(200);
    expect(await stat(join(dir, 'sidecar.lock'))).toBeTruthy();
  });

  it('process: a second sidecar on the same DATA_DIR refuses to start with a clear message; the first keeps serving', async () => {
    const second = await runToEnd('api/sidecar/main.ts', [], { DATA_DIR: dir, SIDECAR_PORT: '0' });
    expect(second.code).toBe(1);
    expect(second.stderr).toContain('already in use');
    expect(second.stderr).toContain(dir);
    expect(second.stderr).not.toMatch(/^\s+at /m);
    expect((await send(first.url, API_PATHS.status)).status).toBe(200);
  });

  // The command's outputs, files and exit codes: clients-cli.test.ts. Here: a running sidecar sees its changes at once.
  it('clients: a client created while the sidecar runs is accepted at once; deleted, it is refused at once', async () => {
    const created = await runToEnd('scripts/clients.ts', ['create', 'Reporting job'], { DATA_DIR: dir });
    expect(created.code).toBe(0);
    const id = /client_id: ([A-Za-z0-9._~-]+)/.exec(created.stdout)![1];
    const secret = /client_secret: ([A-Za-z0-9._~-]+)/.exec(created.stdout)![1];

    const grant = () => send(first.url, API_PATHS.token, formPost('grant_type=client_credentials', { authorization: plainBasic(id, secret) }));
    expect((await grant()).status).toBe(200);
    expect((await runToEnd('scripts/clients.ts', ['delete', id], { DATA_DIR: dir })).code).toBe(0);
    expect((await grant()).status).toBe(401);
  });

  it('process: a sign-up in flight when SIGTERM arrives is finished and stored before exit 0; the lock is released; it printed its URL and no request lines', async () => {
    const { port } = new URL(first.url);
    const body = JSON.stringify({ email: 'inflight@example.com', consent: true });
    const answer = new Promise<number>((done, fail) => {
      const req = request({ host: '127.0.0.1', port, method: 'POST', path: API_PATHS.waitlist, headers: { 'content-type': 'application/json', 'content-length': body.length } }, (res) => {
        res.resume();
        done(res.statusCode ?? 0);
      });
      req.on('error', fail);
      req.write(body.slice(0, 10));
      // A round trip on another connection: by then the first request is in the server's hands.
      send(first.url, API_PATHS.status).then(() => {
        first.child.kill('SIGTERM');
        setImmediate(() => req.end(body.slice(10)));
      });
    });
    expect(await answer).toBe(200);
    expect(await first.exited).toEqual({ code: 0, signal: null });
    const records = storeCodec('x').parse(await readFile(join(dir, STORE_FILE_NAME), 'utf8'));
    expect(records.get('inflight@example.com')).toBeDefined();
    await expect(stat(join(dir, 'sidecar.lock'))).rejects.toThrow();
    // Read once it has exited: a log line is written at the end of its event-loop turn (api/log/logger.ts), and by then all of them are out.
    expect(first.stdout()).toContain(`sidecar listening on ${first.url}`);
    // Request lines are the front's (api/front/log.ts): the sidecar writes none of its own.
    expect(first.stdout()).not.toMatch(/GET|POST|\/api\/v1\//);
  });

  it('process: SIGKILL during a sign-up flood: every sign-up answered 200 is in the file, the file loads, the stale lock is taken over', async () => {
    const sidecar = await start(dir);
    const answered: string[] = [];
    let stop = false;
    let n = 0;
    const worker = async () => {
      while (!stop) {
        const email = `flood${n++}@example.com`;
        // After the kill, requests fail to connect: those were never answered.
        const res = await send(sidecar.url, API_PATHS.waitlist, jsonPost({ email, consent: true })).catch(() => undefined);
        if (res?.status === 200) answered.push(email);
        if (answered.length >= 150) {
          stop = true;
          sidecar.child.kill('SIGKILL');
        }
      }
    };
    await Promise.all(Array.from({ length: 16 }, worker));
    expect(await sidecar.exited).toEqual({ code: null, signal: 'SIGKILL' });
    const table = storeCodec('waitlist.json').parse(await readFile(join(dir, STORE_FILE_NAME), 'utf8'));
    expect(answered.filter((email) => !table.get(email))).toEqual([]);
    restarted = await start(dir);
    expect((await send(restarted.url, API_PATHS.status)).status).toBe(200);
  });

  it('process: keys are generated once (mode 0600) and reused: a token from the first run opens the stats in a later one', async () => {
    const keysPath = join(dir, KEYS_FILE_NAME);
    expect((await stat(keysPath)).mode & 0o777).toBe(0o600);
    expect(await readFile(keysPath)).toEqual(firstKeys);
    const stats = await send(restarted.url, '/sandbox/api/v1/waitlist/stats', { headers: { authorization: `Bearer ${firstToken}` } });
    expect(stats.status).toBe(200);
  });
});

describe.concurrent('sidecar process, refusing to start', { timeout: 60_000 }, () => {
  const it = base.extend<{ dir: string }>({
    dir: async ({}, use) => {
      const dir = await mkdtemp(join(tmpdir(), 'sidecar-refuses-'));
      await use(dir);
      await rm(dir, { recursive: true, force: true });
    },
  });

  it('process: a corrupt data file stops the start (exit 1, the file named, no stack trace) and is left untouched', async ({ dir }) => {
    const path = join(dir, STORE_FILE_NAME);
    const corrupt = '{"format":"waitlist-store","version":1,"records":[{"email":"half';
    await writeFile(path, corrupt);
    const result = await runToEnd('api/sidecar/main.ts', [], { DATA_DIR: dir });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(path);
    expect(result.stderr).not.toMatch(/^\s+at /m);
    expect(await readFile(path, 'utf8')).toBe(corrupt);
    await expect(stat(join(dir, 'sidecar.lock'))).rejects.toThrow();
  });

  it('process: bad configuration -> non-zero exit naming every bad variable', async ({ dir }) => {
    const bad = { SIDECAR_PORT: 'abc', TOKEN_KEY_PRODUCTION: 'c2hvcnQ', BASE_URL: 'ftp://example.org/path', RATE_LIMIT_STANDARD: '0' };
    const result = await runToEnd('api/sidecar/main.ts', [], { DATA_DIR: dir, ...bad });
    expect(result.code).not.toBe(0);
    for (const name of Object.keys(bad)) expect(result.stderr).toContain(name);
  });
});
