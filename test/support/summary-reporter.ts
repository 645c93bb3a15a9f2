/**
 * Closes the run with the 15 slowest test files (what to make cheaper next; each file holds one of
 * the two workers for that long) and then the plain line `N passed, N failed` (and `, N skipped`)
 * that CI reads to tell a run that tested something from one that ran no test; vitest's own
 * summary has another form. That line stays the very last.
 */
import type { Reporter, SerializedError, TestModule, TestRunEndReason } from 'vitest/node';

const SLOWEST = 15;

/** From the worker taking the file to its last test: environment, setup files, import, tests. */
function heldMs(module: TestModule): number {
  const d = module.diagnostic();
  return d.environmentSetupDuration + d.prepareDuration + d.setupDuration + d.collectDuration + d.duration;
}

export default class SummaryReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>, unhandledErrors: ReadonlyArray<SerializedError> = [], reason?: TestRunEndReason): void {
    const counts = { passed: 0, failed: unhandledErrors.length, skipped: 0 };
    for (const module of testModules) {
      const before = counts.failed;
      for (const test of module.children.allTests()) {
        const state = test.result().state;
        if (state === 'passed') counts.passed++;
        else if (state === 'failed') counts.failed++;
        else counts.skipped++;
      }
      // A file that failed outside its tests (a failing beforeAll, an import error) counts once:
      // its tests show as skipped, and the line must not say 0 failed.
      if (module.state() === 'failed' && counts.failed === before) counts.failed++;
    }
    // A run that failed where no file is to blame (a global setup) must not close with 0 failed either.
    if (reason === 'failed' && counts.failed === 0) counts.failed++;

    const slowest = [...testModules].sort((a, b) => heldMs(b) - heldMs(a)).slice(0, SLOWEST);
    if (slowest.length) {
      console.log(`\nslowest ${slowest.length} test files:`);
      for (const module of slowest) {
        console.log(`${(heldMs(module) / 1000).toFixed(1).padStart(7)} s  ${module.project.name.padEnd(6)}  ${module.relativeModuleId}`);
      }
    }
    const skipped = counts.skipped ? `, ${counts.skipped} skipped` : '';
    console.log(`\n${counts.passed} passed, ${counts.failed} failed${skipped}`);
  }
}
