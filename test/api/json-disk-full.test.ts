/**
 * The JSON store's disk fills up during sign-ups: on a real small file system (a tmpfs the test
 * mounts, which needs root; elsewhere the suite is reported as skipped by name). What must hold:
 * each sign-up the disk refuses answers 500 internal_error at once; every acknowledged sign-up
 * stays in the file, which always parses; the outage is one log line, and the store's health says
 * so; once space is back, sign-ups succeed again without a restart.
 */
import { execFileSync } from 'node:child_process';
import { mkdtemp, open, readFile, rm, unlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { API_PATHS } from '../../api/contract/index.ts';
import { createApp } from '../../api/sidecar/app.ts';
import { systemClock } from '../../api/sidecar/deps.ts';
import type { Backend } from '../../api/sidecar/store/backend.ts';
import { openBackend } from '../../api/sidecar/store/open-backend.ts';
import { CapturingLogger, testConfig } from './support/harness.ts';

/** Whether this process may mount a tmpfs (root, and a kernel and sandbox that allow it). */
function canMount(): boolean {
  if (process.getuid?.() !== 0) return false;
  const dir = execFileSync('mktemp', ['-d'], { encoding: 'utf8' }).trim();
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=64k', 'tmpfs', dir], { stdio: 'ignore' });
    execFileSync('umount', [dir]);
    return true;
  } catch {
    return false;
  } finally {
    execFileSync('rmdir', [dir]);
  }
}

const mountable = canMount();
const suite = mountable ? describe : describe.skip;

suite(`the JSON store on a disk that fills up (a real tmpfs)${mountable ? '' : ' (skipped: mounting a tmpfs needs root)'}`, () => {
  let mountPoint: string;
  let backend: Backend;
  const logger = new CapturingLogger();
  let app: ReturnType<typeof createApp>;
  let dataFile: string;

  beforeAll(async () => {
    mountPoint = await mkdtemp(join(tmpdir(), 'disk-full-'));
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=256k', 'tmpfs', mountPoint]);
    const config = testConfig({ DATA_DIR: join(mountPoint, 'data') });
    backend = await openBackend(config, { logger });
    const { store, keys, clients } = backend;
    app = createApp({ store, clock: systemClock, keys, clients, config, logger });
    dataFile = join(mountPoint, 'data', 'waitlist.json');
  });
  afterAll(async () => {
    await backend?.close();
    execFileSync('umount', [mountPoint]);
    await rm(mountPoint, { recursive: true, force: true });
  });

  const signUp = async (email: string) => {
    const started = performance.now();
    const res = await app.request(API_PATHS.waitlist, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, consent: true }),
    });
    const error = res.ok ? undefined : ((await res.json()) as { error: string }).error;
    return { email, status: res.status, error, ms: performance.now() - started };
  };
  /** The addresses in the file on disk (it must parse: never a half-written file). */
  const onDisk = async () => new Set((JSON.parse(await readFile(dataFile, 'utf8')).records as { email: string }[]).map((r) => r.email));

  /** Fills what is left of the file system; resolves with the filler's path. */
  async function fillDisk(): Promise<string> {
    const path = join(mountPoint, 'filler');
    const file = await open(path, 'w');
    const block = Buffer.alloc(4096, 1);
    try {
      for (;;) await file.write(block);
    } catch (error) {
      expect((error as NodeJS.ErrnoException).code).toBe('ENOSPC');
    } finally {
      await file.close();
    }
    return path;
  }

  it('disk full: refused sign-ups answer 500 fast, acknowledged ones stay in a whole file, one log line; with space back they succeed again without a restart', async () => {
    const acknowledged: string[] = [];
    for (let i = 0; i < 10; i++) {
      const answer = await signUp(`before-${i}@example.org`);
      expect(answer.status).toBeLessThan(300);
      acknowledged.push(answer.email);
    }
    const filler = await fillDisk();
    const during = [];
    for (let i = 0; i < 30; i++) during.push(await signUp(`during-${i}@example.org`));
    const refused = during.filter((answer) => answer.status >= 300);
    acknowledged.push(...during.filter((answer) => answer.status < 300).map((answer) => answer.email));
    expect(refused.length).toBeGreaterThan(0);
    for (const answer of refused) expect([answer.status, answer.error, answer.ms < 1000]).toEqual([500, 'internal_error', true]);
    const stored = await onDisk();
    for (const email of acknowledged) expect(stored.has(email), email).toBe(true);
    expect(backend.health.state()).toMatchObject({ engine: 'json', state: 'down', lastError: expect.stringMatching(/^ENOSPC/) });
    expect(logger.lines).toEqual([expect.stringMatching(/^json: unavailable \(ENOSPC \(no space left on device.*\); sign-ups and erasures answer 500/)]);

    await unlink(filler);
    // No request needed: the store retries its commit on its own and says it is back.
    await vi.waitFor(() => expect(backend.health.up).toBe(true), { timeout: 3000, interval: 50 });
    expect(logger.lines[1]).toMatch(new RegExp(`^json: available again after [\\d.]+ s; ${refused.length} requests failed during the outage$`));
    const after = await signUp('after@example.org');
    expect(after.status).toBeLessThan(300);
    const final = await onDisk();
    for (const email of [...acknowledged, after.email]) expect(final.has(email), email).toBe(true);
    expect(logger.lines).toHaveLength(2);
  });
});
