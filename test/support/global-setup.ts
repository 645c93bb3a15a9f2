/**
 * Global setup of the e2e project: build the site once for a free port P (so every absolute URL
 * the site publishes points at this stack), start the real stack on P, provide
 * `{baseUrl, dataDir, distDir}` as inject('stack'), and stop it all afterwards.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { buildSiteFor, forgetBuild, freePort, startStack } from './stack.ts';

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const distDir = await mkdtemp(path.join(tmpdir(), 'e2e-dist-'));
  try {
    await buildSiteFor(distDir, baseUrl);
    const stack = await startStack({ port, distDir });
    project.provide('stack', { baseUrl: stack.baseUrl, dataDir: stack.dataDir, distDir });
    return async () => {
      const code = await stack.stop();
      await Promise.all([rm(distDir, { recursive: true, force: true }), forgetBuild(distDir)]);
      if (code !== 0) throw new Error(`the stack exited with code ${code} on SIGTERM:\n${stack.output()}`);
    };
  } catch (error) {
    await Promise.all([rm(distDir, { recursive: true, force: true }), forgetBuild(distDir)]);
    throw error;
  }
}
