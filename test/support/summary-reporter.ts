/**
 * Prints the plain closing line `N passed, N failed` (and `, N skipped`) that CI reads to tell
 * a run that tested something from one that ran no test; vitest's own summary has another form.
 */
import type { Reporter, TestModule } from 'vitest/node';

export default class SummaryReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    const counts = { passed: 0, failed: 0, skipped: 0 };
    for (const module of testModules) {
      for (const test of module.children.allTests()) {
        const state = test.result().state;
        if (state === 'passed') counts.passed++;
        else if (state === 'failed') counts.failed++;
        else counts.skipped++;
      }
    }
    const skipped = counts.skipped ? `, ${counts.skipped} skipped` : '';
    console.log(`\n${counts.passed} passed, ${counts.failed} failed${skipped}`);
  }
}
