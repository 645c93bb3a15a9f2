/**
 * `npm run fuzz`: the fuzz suite (test/fuzz/) at full size. Without --url it builds the site into a
 * temp dir and starts a stack of its own (fresh temp DATA_DIR), so nothing of the operator's is touched.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { countsLine, runCampaign } from '../test/fuzz/campaign.ts';
import { buildSiteFor, forgetBuild, freePort, startStack, type RunningStack } from '../test/support/stack.ts';

const USAGE = 'usage: npm run fuzz -- [--runs N] [--seed S] [--concurrency C] [--url http://host:port] [--show-failures N]';
let values;
try {
  ({ values } = parseArgs({
    options: {
      runs: { type: 'string', default: '20000' },
      seed: { type: 'string', default: String(Date.now() % 1_000_000) },
      concurrency: { type: 'string', default: '8' },
      url: { type: 'string' },
      'show-failures': { type: 'string', default: '20' },
      help: { type: 'boolean', short: 'h' },
    },
  }));
} catch (error) {
  console.error(`${(error as Error).message}\n${USAGE}`);
  process.exit(2);
}
if (values.help) {
  console.log(USAGE);
  process.exit(0);
}
const runs = Number(values.runs);
const seed = Number(values.seed);
const concurrency = Number(values.concurrency);
if (![runs, seed, concurrency].every((n) => Number.isSafeInteger(n) && n >= 0) || runs === 0 || concurrency === 0) {
  console.error(USAGE);
  process.exit(2);
}

let stack: RunningStack | undefined;
let distDir: string | undefined;
let url = values.url;
if (!url) {
  const port = await freePort();
  distDir = await mkdtemp(join(tmpdir(), 'fuzz-dist-'));
  console.log('building the site and starting a stack of its own…');
  await buildSiteFor(distDir, `http://127.0.0.1:${port}`);
  stack = await startStack({ port, distDir, env: { LOG_REQUESTS: 'false' } });
  url = stack.url;
}

let code = 1;
try {
  console.log(`fuzz: ${runs} requests, seed ${seed}, ${concurrency} at a time, against ${url}`);
  const step = Math.max(1, Math.round(runs / 10));
  const result = await runCampaign({ url, seed, runs, concurrency, onAnswer: (n) => n % step === 0 && console.log(`  ${n} / ${runs}`) });
  console.log(`\ncounts by status (${(result.ms / 1000).toFixed(1)} s): ${countsLine(result.counts)}`);
  const shown = Number(values['show-failures']);
  for (const failure of result.failures.slice(0, shown)) {
    console.log(`\n#${failure.index} -> ${failure.outcome}: ${failure.problems.join('; ')}\n  ${failure.request}`);
  }
  console.log(`\n${result.failures.length} of ${runs} failed${result.failures.length > shown ? ` (first ${shown} shown)` : ''}; replay with --seed ${seed} --runs ${runs}`);
  code = result.failures.length === 0 ? 0 : 1;
} finally {
  if (stack) {
    await stack.stop();
    const errors = stack.output().split('\n').filter((line) => /internal error|"level":"?(error|50)/.test(line));
    if (errors.length) console.log(`\nthe stack logged ${errors.length} error lines, the first ones:\n${errors.slice(0, 10).join('\n')}`);
  }
  if (distDir) await Promise.all([rm(distDir, { recursive: true, force: true }), forgetBuild(distDir)]);
}
process.exit(code);
