/**
 * The order files start in. Two workers run the files; a long file that starts last leaves one
 * core idle at the end, so the longest start first, whatever their project (vitest's own order
 * groups files by project and, on a fresh clone, sorts them by size, which says little about time).
 * A file's expected time is its duration in vitest's record of the last run where there is one,
 * else the figure below (seconds measured on the 2-core machine), else a small figure from its size.
 * Only the order depends on these figures, never what runs.
 */
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

const MEASURED_S: Record<string, number> = {
  'test/e2e/dev-preview.test.ts': 28,
  'test/browser/axe.test.ts': 23,
  'test/api/check-erase-cli.test.ts': 18,
  'test/e2e/start-cost.test.ts': 15,
  'test/site/build.test.ts': 14,
  'test/api/report-browser.test.ts': 13,
  'test/browser/signup.test.ts': 13,
  'test/api/waitlist-cli.test.ts': 11,
  'test/e2e/signals.test.ts': 11,
  'test/api/invite-failures.test.ts': 9,
  'test/deploy/nginx-tls.test.ts': 9,
  'test/e2e/engine-outage.test.ts': 9,
  'test/api/invite-cli.test.ts': 8,
  'test/api/json-backend.test.ts': 8,
  'test/api/clients-cli.test.ts': 7,
  'test/api/invite-check.test.ts': 7,
  'test/api/report-cli.test.ts': 7,
  'test/e2e/scale-out.test.ts': 7,
  'test/typecheck.test.ts': 7,
  'test/api/postgres-migrate.test.ts': 6,
  'test/api/postgres-stats-counters.test.ts': 6,
  'test/api/process.test.ts': 6,
  'test/deploy/backup.test.ts': 6,
  'test/deploy/bench-runner.test.ts': 6,
  'test/e2e/hostile-connections.test.ts': 6,
  'test/api/invite-concurrent.test.ts': 5,
  'test/api/rate-limit-redis.test.ts': 5,
  'test/e2e/front-supervisor.test.ts': 5,
  'test/api/postgres-pool-wait.test.ts': 4,
  'test/api/postgres-stats-kill.test.ts': 4,
  'test/deploy/nginx-two-instances.test.ts': 4,
  'test/e2e/fuzz.test.ts': 4,
  'test/e2e/mcp.test.ts': 4,
  'test/api/postgres-process.test.ts': 3,
  'test/api/waitlist.test.ts': 3,
  'test/browser/budgets.test.ts': 3,
  'test/browser/cors.test.ts': 3,
  'test/browser/keyboard.test.ts': 3,
  'test/e2e/front-restart-hold.test.ts': 3,
  'test/front/sidecar-listen.test.ts': 3,
  'test/site/message-templates.test.ts': 3,
  'test/api/engine-tls.test.ts': 2,
  'test/api/lock-holder.test.ts': 2,
  'test/api/postgres-store.test.ts': 2,
  'test/api/stats.test.ts': 2,
  'test/browser/screenshots.test.ts': 2,
  'test/deploy/backup-postgres.test.ts': 2,
  'test/deploy/production-guard.test.ts': 2,
  'test/e2e/front-log.test.ts': 2,
  'test/e2e/front-proxy.test.ts': 2,
  'test/e2e/mcp-conformance.test.ts': 2,
  'test/e2e/metrics.test.ts': 2,
  'test/e2e/protocol-edges.test.ts': 2,
  'test/front/server.test.ts': 2,
  'test/front/start-fail-fast.test.ts': 2,
  'test/openapi/both-ways.test.ts': 2,
};

export default class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const expected = new Map<TestSpecification, number>();
    for (const spec of files) {
      const last = this.ctx.cache.getTestSpecificationResult(spec);
      const relative = path.relative(this.ctx.config.root, spec.moduleId).split(path.sep).join('/');
      const measured = MEASURED_S[relative];
      // A file of unknown time: a hundredth of its size in bytes as milliseconds, below every measured file.
      const guess = measured === undefined ? await stat(spec.moduleId).then((s) => s.size / 100, () => 0) : measured * 1000;
      expected.set(spec, last?.duration ?? guess);
    }
    const order = [...files].sort((a, b) => expected.get(b)! - expected.get(a)!);
    // The e2e files wait for the run's stack, built when the first of them asks: the longest e2e file
    // goes first, so that the build starts at once; meanwhile the other worker should be busy: the
    // longest file that does not wait goes second.
    const first = order.findIndex((spec) => spec.project.name === 'e2e');
    if (first > 0) order.unshift(...order.splice(first, 1));
    const other = order.findIndex((spec) => spec.project.name !== 'e2e');
    if (order[0]?.project.name === 'e2e' && other > 1) order.splice(1, 0, ...order.splice(other, 1));
    return order;
  }
}
