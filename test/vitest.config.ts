import { defineConfig } from 'vitest/config';

/**
 * Two projects. `unit`: in-process tests and small fixtures, no shared server. `e2e`: end-to-end
 * and browser tests against the real stack (front + sidecar child, built site), which the global
 * setup builds and starts once (test/support/global-setup.ts) and hands out via inject('stack').
 */
export default defineConfig({
  test: {
    root: new URL('..', import.meta.url).pathname,
    environment: 'node',
    testTimeout: 20_000,
    hookTimeout: 60_000,
    // Server and browser tests start real processes; keep the 2-core machine from thrashing.
    maxWorkers: 2,
    // The plain `N passed, N failed` line is what CI reads to know that tests ran.
    reporters: ['default', './test/support/summary-reporter.ts'],
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['test/{api,site,front,openapi}/**/*.test.ts'],
        },
      },
      {
        extends: true,
        test: {
          // The deploy guide's artefacts (docs/deploy/) against real nginx, systemd-analyze and stacks.
          name: 'deploy',
          include: ['test/deploy/**/*.test.ts'],
        },
      },
      {
        extends: true,
        test: {
          name: 'e2e',
          include: ['test/e2e/**/*.test.ts', 'test/browser/**/*.test.ts'],
          globalSetup: ['test/support/global-setup.ts'],
        },
      },
    ],
  },
});
