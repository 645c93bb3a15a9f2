/**
 * Start-up after a build: `npm start` with the settings `npm run build` had serves that build at
 * once instead of building again. The build is the run's (test/support/global-setup.ts builds the
 * site with `npm run build`); two builds at the same time are test/site/build.test.ts's.
 */
import { describe, expect, inject, test } from 'vitest';
import { OWN_STACK_TIMEOUT_MS, startStack } from '../support/stack.ts';

const shared = inject('stack');

describe('builds and start-up', { timeout: OWN_STACK_TIMEOUT_MS }, () => {
  test('start-up: npm start right after npm run build with the same settings does not build again', async () => {
    const started = performance.now();
    const stack = await startStack({ distDir: shared.distDir, baseUrl: shared.baseUrl, env: { LOG_FORMAT: 'json' } });
    const ms = performance.now() - started;
    await stack.stop();
    expect(stack.output()).not.toMatch(/building the site/);
    expect(stack.output()).toMatch(/\(current, not rebuilt\)/);
    console.log(`npm start after npm run build: serving after ${ms.toFixed(0)} ms`);
  });
});
