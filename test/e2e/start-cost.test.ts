/**
 * Builds and start-up: `npm run build` and a second build into another DIST_DIR at the same time
 * both succeed (tests and benches build side by side), and `npm start` right after `npm run build`
 * with the same settings serves the build at once instead of building again. The two builds are
 * the file's one set of builds, shared by its tests: each costs seconds of CPU.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { loadConfig } from '../../api/config.ts';
import { buildSite } from '../../api/start/site-build.ts';
import { OWN_STACK_TIMEOUT_MS, ROOT, forgetBuild, freePort, stackEnv, startStack } from '../support/stack.ts';

function npmRunBuild(env: NodeJS.ProcessEnv): Promise<{ code: number | null; output: string }> {
  const child = spawn('npm', ['run', 'build'], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, output })));
}

const dists: string[] = [];
let port: number;
let baseUrl: string;
let npmBuild: { code: number | null; output: string };
let otherBuild: Error | undefined;

beforeAll(async () => {
  port = await freePort();
  baseUrl = `http://127.0.0.1:${port}`;
  dists.push(await mkdtemp(path.join(tmpdir(), 'start-cost-dist-')), await mkdtemp(path.join(tmpdir(), 'other-build-dist-')));
  // Different BASE_URLs make different chunks, as two stacks' builds do.
  const otherEnv = stackEnv({ BASE_URL: 'http://127.0.0.2:9', DIST_DIR: dists[1] });
  [npmBuild, otherBuild] = await Promise.all([
    npmRunBuild(stackEnv({ BASE_URL: baseUrl, DIST_DIR: dists[0] })),
    buildSite(ROOT, loadConfig(otherEnv), otherEnv, { quiet: true }).then(() => undefined, (error: Error) => error),
  ]);
}, OWN_STACK_TIMEOUT_MS * 2);

afterAll(async () => {
  await Promise.all(dists.map((dist) => Promise.all([rm(dist, { recursive: true, force: true }), forgetBuild(dist)])));
});

describe('builds and start-up', { timeout: OWN_STACK_TIMEOUT_MS * 2 }, () => {
  // Astro's prerender chunks would share <root>/.astro/.prerender and overwrite each other
  // (ERR_MODULE_NOT_FOUND in one of the builds); each DIST_DIR gets its own working directory.
  test('site-build: two builds into different DIST_DIRs at the same time both succeed', async () => {
    expect(npmBuild.code, npmBuild.output).toBe(0);
    expect(otherBuild).toBeUndefined();
    for (const dist of dists) expect((await readdir(dist)).sort()).toEqual(expect.arrayContaining(['index.html', 'robots.txt', 'llms.txt']));
  });

  test('start-up: npm start right after npm run build with the same settings does not build again', async () => {
    expect(npmBuild.code, npmBuild.output).toBe(0);
    const started = performance.now();
    const stack = await startStack({ port, distDir: dists[0], baseUrl, env: { LOG_FORMAT: 'json' } });
    const ms = performance.now() - started;
    await stack.stop();
    expect(stack.output()).not.toMatch(/building the site/);
    expect(stack.output()).toMatch(/\(current, not rebuilt\)/);
    console.log(`npm start after npm run build: serving after ${ms.toFixed(0)} ms`);
  });
});
