import { mkdir, mkdtemp, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { loadConfig } from '../../api/config.ts';
import { stampPath, staleReason, writeStamp } from '../../api/start/site-build.ts';

let root: string;
const T0 = new Date('2030-01-01T00:00:00Z');
const config = (env: Record<string, string> = {}) => loadConfig({ DIST_DIR: 'dist', ...env });

async function touch(rel: string, at: Date): Promise<void> {
  const file = path.join(root, rel);
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, 'x');
  await utimes(file, at, at);
}

beforeEach(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'site-build-'));
  await touch('content/en/index.md', T0);
  await touch('site/pages/index.astro', T0);
  await touch('astro.config.mjs', T0);
  await touch('package-lock.json', T0);
});
afterEach(() => rm(root, { recursive: true, force: true }));

describe('npm start builds only when needed', () => {
  test('stale: no dist/ -> build', async () => {
    expect(await staleReason(root, config())).toMatch(/dist has no build/);
  });

  test('stale: dist/ without a record of its build (e.g. a failed build) -> build', async () => {
    await touch('dist/index.html', T0);
    expect(await staleReason(root, config())).toMatch(/no record/);
  });

  test('current: built after the newest input with the same settings -> no build', async () => {
    await touch('dist/index.html', T0);
    await writeStamp(root, config(), T0.getTime() + 1000);
    expect(await staleReason(root, config())).toBeUndefined();
  });

  test.each(['content/en/new-page.md', 'site/i18n.ts', 'api/contract/limits.ts', 'astro.config.mjs', 'package-lock.json'])(
    'stale: %s changed after the last build -> build',
    async (input) => {
      await touch('dist/index.html', T0);
      await writeStamp(root, config(), T0.getTime() + 1000);
      await touch(input, new Date(T0.getTime() + 5000));
      expect(await staleReason(root, config())).toBe(`${input} changed since the last build`);
    },
  );

  test.each([
    ['BASE_URL', 'https://other.example'],
    ['SECURITY_CONTACT', 'mailto:other@example.org'],
  ])('stale: %s differs from the last build -> build', async (name, value) => {
    await touch('dist/index.html', T0);
    await writeStamp(root, config(), T0.getTime() + 1000);
    expect(await staleReason(root, config({ [name]: value }))).toBe(`${name} differs from the last build`);
  });

  test('current: settings the build does not use (PORT) do not trigger a build', async () => {
    await touch('dist/index.html', T0);
    await writeStamp(root, config(), T0.getTime() + 1000);
    expect(await staleReason(root, config({ PORT: '9999', LOG_REQUESTS: 'false' }))).toBeUndefined();
  });

  test('stamps are per DIST_DIR: building another dist/ does not make this one current', async () => {
    await touch('dist/index.html', T0);
    await touch('other/index.html', T0);
    await writeStamp(root, config({ DIST_DIR: 'other' }), T0.getTime() + 1000);
    expect(await staleReason(root, config())).toMatch(/no record/);
  });
});
