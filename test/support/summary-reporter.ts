/**
 * Prints the plain closing line `N passed, N failed` (and `, N skipped`) that CI reads to tell
 * a run that tested something from one that ran no test; vitest's own summary has another form.
 */
import type { Reporter, SerializedError, TestModule } from 'vitest/node';

export default class SummaryReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>, unhandledErrors: ReadonlyArray<SerializedError> = []): void {
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
    const skipped = counts.skipped ? `, ${counts.skipped} skipped` : '';
    console.log(`\n${counts.passed} passed, ${counts.failed} failed${skipped}`);
  }
}
