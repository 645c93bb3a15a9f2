/**
 * The fuzz suite: generated hostile requests (test/fuzz/) against the real front and
 * sidecar of a stack of its own, over every endpoint, production and sandbox, through node:http
 * and raw sockets. Seeded: a failure names the request's index, and the same seed replays it
 * (`npm run fuzz -- --seed N --runs M` runs more of them and prints the counts by status).
 */
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { API_PATHS } from '../../api/contract/index.ts';
import { countsLine, runCampaign } from '../fuzz/campaign.ts';
import { OWN_STACK_TIMEOUT_MS, startStack, type RunningStack } from '../support/stack.ts';

const SEED = 8_2026;
const RUNS = 2_000;
const shared = inject('stack');

describe('fuzz', { timeout: OWN_STACK_TIMEOUT_MS }, () => {
  let stack: RunningStack;
  beforeAll(async () => {
    stack = await startStack({ distDir: shared.distDir, baseUrl: shared.baseUrl, env: { LOG_REQUESTS: 'false' } });
  });
  afterAll(() => stack?.stop());

  it(`fuzz: ${RUNS} generated hostile requests (seed ${SEED}) -> no 5xx, no hang, every /api answer of the documented shape with its headers`, async () => {
    const result = await runCampaign({ url: stack.url, seed: SEED, runs: RUNS });
    console.info(`fuzz seed ${SEED}: ${RUNS} requests in ${(result.ms / 1000).toFixed(1)} s; ${countsLine(result.counts)}`);
    expect(result.failures.slice(0, 8), `${result.failures.length} of ${RUNS} failed`).toEqual([]);
    expect(Object.values(result.counts).reduce((a, b) => a + b, 0)).toBe(RUNS);
    // The campaign must reach the handlers, not only the edges: successes and refusals both.
    for (const status of ['200', '400', '404', '405', '413']) expect(result.counts[status] ?? 0, status).toBeGreaterThan(0);
  });

  it('fuzz: afterwards the stack still answers, and logged no internal error and no stack trace', async () => {
    const res = await fetch(new URL(API_PATHS.status, stack.url));
    expect(res.status).toBe(200);
    expect(stack.output()).not.toMatch(/internal error|"level":"?(error|50)|\n\s+at /);
  });
});
