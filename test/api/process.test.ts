/**
 * The real process: `node api/sidecar/main.ts` with a temp DATA_DIR and an ephemeral port.
 * Start-up, refusal to start, graceful stop, a SIGKILL during a sign-up flood, keys across restarts,
 * and the operator's clients command against a running sidecar.
 */
import { request } from 'node:http';
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { API_PATHS } from '../../api/contract/index.ts';
import { KEYS_FILE_NAME } from '../../api/sidecar/store/json/keys-file.ts';
import { storeCodec } from '../../api/sidecar/store/json/store-file.ts';
import { STORE_FILE_NAME } from '../../api/sidecar/store/json/waitlist-store.ts';
import { send } from '../support/request.ts';
import { runToEnd, startSidecar, type Running } from './support/process.ts';
import { formPost, jsonPost, plainBasic } from './support/requests.ts';

let dir: string;
const running: Running[] = [];
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'sidecar-process-'));
});
afterEach(async () => {
  for (const r of running.splice(0)) {
    if (r.child.exitCode === null && r.child.signalCode === null) r.child.kill('SIGKILL');
    await r.exited;
  }
  await rm(dir, { recursive: true, force: true });
});

async function start(env: Record<string, string> = {}): Promise<Running> {
  const sidecar = await startSidecar({ DATA_DIR: dir, RATE_LIMIT_STANDARD: '100000', RATE_LIMIT_RELAXED: '100000', ...env });
  running.push(sidecar);
  return sidecar;
}

// Each case starts node processes (one starts six); on a busy 2-core machine one start can take seconds.
describe('sidecar process', { timeout: 60_000 }, () => {
  it('process: prints its URL, reports ready over IPC, serves, and stops on SIGTERM with exit 0 and the lock released', async () => {
    const sidecar = await start({ LOG_REQUESTS: 'true' });
    expect(sidecar.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect((await send(sidecar.url, API_PATHS.status)).status).toBe(200);
    expect(await stat(join(dir, 'sidecar.lock'))).toBeTruthy();
    sidecar.child.kill('SIGTERM');
    expect(await sidecar.exited).toEqual({ code: 0, signal: null });
    await expect(stat(join(dir, 'sidecar.lock'))).rejects.toThrow();
    // Log lines are written asynchronously (api/log/logger.ts): by its exit, all of them are out.
    expect(sidecar.stdout()).toContain(`sidecar listening on ${sidecar.url}`);
    // Request lines are the front's (api/front/log.ts): the sidecar writes none of its own.
    expect(sidecar.stdout()).not.toMatch(/GET|\/api\/v1\/status/);
  });

  it('process: a sign-up in flight when SIGTERM arrives is finished and stored before exit 0', async () => {
    const sidecar = await start();
    const { port } = new URL(sidecar.url);
    const body = JSON.stringify({ email: 'inflight@example.com', consent: true });
    const answer = new Promise<number>((done, fail) => {
      const req = request({ host: '127.0.0.1', port, method: 'POST', path: API_PATHS.waitlist, headers: { 'content-type': 'application/json', 'content-length': body.length } }, (res) => {
        res.resume();
        done(res.statusCode ?? 0);
      });
      req.on('error', fail);
      req.write(body.slice(0, 10));
      // A round trip on another connection: by then the first request is in the server's hands.
      send(sidecar.url, API_PATHS.status).then(() => {
        sidecar.child.kill('SIGTERM');
        setImmediate(() => req.end(body.slice(10)));
      });
    });
    expect(await answer).toBe(200);
    expect(await sidecar.exited).toEqual({ code: 0, signal: null });
    const records = storeCodec('x').parse(await readFile(join(dir, STORE_FILE_NAME), 'utf8'));
    expect(records.get('inflight@example.com')).toBeDefined();
  });

  it('process: SIGKILL during a sign-up flood: every sign-up answered 200 is in the file, the file loads, the stale lock is taken over', async () => {
    const sidecar = await start();
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
    const again = await start();
    expect((await send(again.url, API_PATHS.status)).status).toBe(200);
  });

  it('process: a second sidecar on the same DATA_DIR refuses to start with a clear message; the first keeps serving', async () => {
    const first = await start();
    const second = await runToEnd('api/sidecar/main.ts', [], { DATA_DIR: dir, SIDECAR_PORT: '0' });
    expect(second.code).toBe(1);
    expect(second.stderr).toContain('already in use');
    expect(second.stderr).toContain(dir);
    expect(second.stderr).not.toMatch(/^\s+at /m);
    expect((await send(first.url, API_PATHS.status)).status).toBe(200);
  });

  it('process: a corrupt data file stops the start (exit 1, the file named, no stack trace) and is left untouched', async () => {
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

  it('process: bad configuration -> non-zero exit naming every bad variable', async () => {
    const bad = { SIDECAR_PORT: 'abc', TOKEN_KEY_PRODUCTION: 'c2hvcnQ', BASE_URL: 'ftp://example.org/path', RATE_LIMIT_STANDARD: '0' };
    const result = await runToEnd('api/sidecar/main.ts', [], { DATA_DIR: dir, ...bad });
    expect(result.code).not.toBe(0);
    for (const name of Object.keys(bad)) expect(result.stderr).toContain(name);
  });

  it('process: keys are generated once (mode 0600) and reused: a token from the first run opens the stats in the second', async () => {
    const first = await start();
    const keysPath = join(dir, KEYS_FILE_NAME);
    const keys = await readFile(keysPath);
    expect((await stat(keysPath)).mode & 0o777).toBe(0o600);
    const token = await send(first.url, '/sandbox/api/v1/oauth/token', formPost('grant_type=client_credentials', { authorization: plainBasic('sandbox', 'sandbox') }));
    first.child.kill('SIGTERM');
    await first.exited;
    const second = await start();
    expect(await readFile(keysPath)).toEqual(keys);
    const stats = await send(second.url, '/sandbox/api/v1/waitlist/stats', { headers: { authorization: `Bearer ${token.body.access_token}` } });
    expect(stats.status).toBe(200);
  });

  // The command's outputs, files and exit codes: clients-cli.test.ts. Here: a running sidecar sees its changes at once.
  it('clients: a client created while the sidecar runs is accepted at once; deleted, it is refused at once', async () => {
    const sidecar = await start();
    const created = await runToEnd('scripts/clients.ts', ['create', 'Reporting job'], { DATA_DIR: dir });
    expect(created.code).toBe(0);
    const id = /client_id: ([A-Za-z0-9._~-]+)/.exec(created.stdout)![1];
    const secret = /client_secret: ([A-Za-z0-9._~-]+)/.exec(created.stdout)![1];

    const grant = () => send(sidecar.url, API_PATHS.token, formPost('grant_type=client_credentials', { authorization: plainBasic(id, secret) }));
    expect((await grant()).status).toBe(200);
    expect((await runToEnd('scripts/clients.ts', ['delete', id], { DATA_DIR: dir })).code).toBe(0);
    expect((await grant()).status).toBe(401);
  });
});
