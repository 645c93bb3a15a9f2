import path from 'node:path';
import { defineConfig } from 'vitest/config';
import LongestFirst from './support/sequencer.ts';

/**
 * Three projects. `unit`: in-process tests and small fixtures, no shared server. `deploy`: the
 * deploy guide's artefacts. `e2e`: end-to-end and browser tests against the real stack (front +
 * sidecar child, built site), handed out via inject('stack'). What files share (the site build,
 * the stack, PostgreSQL, Redis) is the whole run's: test/support/global-setup.ts.
 */
const root = new URL('..', import.meta.url).pathname;

// The tests start hundreds of Node processes (stacks, sidecars, operator commands, builds), and
// most of a start is compiling the same modules again. Node's compile cache keeps that work
// between processes; every process the tests start inherits the setting.
process.env.NODE_COMPILE_CACHE ??= path.join(root, 'node_modules', '.cache', 'node-compile');

/** What every project shares (a project without `extends` does not inherit the root's test options). */
const common = {
  root,
  environment: 'node',
  testTimeout: 20_000,
  hookTimeout: 60_000,
  // Server and browser tests start real processes; keep the 2-core machine from thrashing.
  maxWorkers: 2,
  // Every file cleans up after itself (processes stopped, temp dirs removed, nothing global
  // changed): a worker runs one file after another instead of a new worker (a Node start,
  // vitest's runtime, the modules) for each.
  isolate: false,
} as const;

export default defineConfig({
  test: {
    root,
    maxWorkers: common.maxWorkers,
    // Longest files first across all projects, so that neither worker is left with a long file at the end.
    sequence: { sequencer: LongestFirst },
    // The plain `N passed, N failed` line is what CI reads to know that tests ran.
    reporters: ['default', './test/support/summary-reporter.ts'],
    // The run's, not a project's: the site build, the stack, PostgreSQL and Redis, each started once,
    // on the first file's demand, and shared by every file of every project.
    globalSetup: ['test/support/global-setup.ts'],
    projects: [
      {
        test: {
          ...common,
          name: 'unit',
          include: ['test/*.test.ts', 'test/{api,site,front,openapi}/**/*.test.ts'],
        },
      },
      {
        test: {
          ...common,
          // The deploy guide's artefacts (docs/deploy/) against real nginx, systemd-analyze and stacks.
          name: 'deploy',
          include: ['test/deploy/**/*.test.ts'],
        },
      },
      {
        test: {
          ...common,
          name: 'e2e',
          include: ['test/e2e/**/*.test.ts', 'test/browser/**/*.test.ts'],
          // Every file talks to the run's stack (inject('stack')): it is up before the file starts.
          setupFiles: ['test/support/stack-ready.ts'],
        },
      },
    ],
  },
});
