/**
 * `npm run lighthouse` (docs/browser.md, "Lighthouse"). The performance score varies from run to
 * run with the host's load, so each page is run RUNS times and the median run (by performance
 * score) is reported, as Lighthouse's variability guide recommends.
 */
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import lighthouse from 'lighthouse';
import { chromium, type Browser } from 'playwright-core';
import { PAGE_PATHS } from '../api/contract/paths.ts';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../test/support/browser.ts';
import { ROOT, buildSiteFor, forgetBuild, freePort, startStack } from '../test/support/stack.ts';

const CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo'] as const;
const PAGES = [PAGE_PATHS.home.en, PAGE_PATHS.home.de];
const SUMMARY_FILE = path.join(ROOT, 'docs', 'lighthouse.json');
const RUNS = 3;
/** Lab metrics kept in the summary (simulated mobile: slow 4G, 4x CPU slowdown). */
const METRICS = ['first-contentful-paint', 'largest-contentful-paint', 'total-blocking-time', 'cumulative-layout-shift', 'speed-index'];

/** The category scores, METRICS as Lighthouse displays them (`0.8 s`), and the audits that cost points. */
async function audit(url: string, port: number) {
  const result = await lighthouse(url, { port, logLevel: 'error', output: 'json', onlyCategories: [...CATEGORIES] });
  if (!result) throw new Error(`lighthouse returned nothing for ${url}`);
  const { categories, audits, runtimeError } = result.lhr;
  if (runtimeError) throw new Error(`lighthouse on ${url}: ${runtimeError.code} ${runtimeError.message}`);
  const scores: Record<string, number> = {};
  const findings: string[] = [];
  for (const id of CATEGORIES) {
    const category = categories[id];
    scores[id] = Math.round((category.score ?? 0) * 100);
    for (const ref of category.auditRefs) {
      const a = audits[ref.id];
      if (ref.weight > 0 && a.score !== null && a.score < 1) findings.push(`${id}: ${a.id} (${a.score}) ${a.title}`);
    }
  }
  const metrics = Object.fromEntries(METRICS.map((id) => [id, audits[id]?.displayValue ?? 'n/a']));
  return { scores, metrics, findings };
}

type PageResult = Awaited<ReturnType<typeof audit>>;

const port = await freePort();
const baseUrl = `http://127.0.0.1:${port}`;
const distDir = await mkdtemp(path.join(tmpdir(), 'lighthouse-dist-'));
let stack: Awaited<ReturnType<typeof startStack>> | undefined;
let browser: Browser | undefined;
let failed = false;
try {
  console.error(`building the site for ${baseUrl} …`);
  await buildSiteFor(distDir, baseUrl);
  stack = await startStack({ port, distDir });
  if (!existsSync(CHROMIUM_PATH)) throw new Error(`No Chromium at ${CHROMIUM_PATH}: apt-get install -y chromium`);
  // Lighthouse drives the browser through its DevTools port.
  const devtools = await freePort();
  browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: [...CHROMIUM_ARGS, `--remote-debugging-port=${devtools}`] });
  const { Browser: version } = (await (await fetch(`http://127.0.0.1:${devtools}/json/version`)).json()) as { Browser: string };

  const pages: Record<string, PageResult> = {};
  for (const page of PAGES) {
    const runs: PageResult[] = [];
    for (let i = 0; i < RUNS; i++) runs.push(await audit(`${baseUrl}${page}`, devtools));
    runs.sort((a, b) => a.scores.performance - b.scores.performance);
    pages[page] = runs[Math.floor(RUNS / 2)];
    console.log(`${page.padEnd(6)} performance of the ${RUNS} runs: ${runs.map((r) => r.scores.performance).join(', ')}`);
    const { scores, findings } = pages[page];
    console.log(`${page.padEnd(6)} ${CATEGORIES.map((c) => `${c} ${scores[c]}`).join('  ')}`);
    console.log(`       ${Object.entries(pages[page].metrics).map(([id, value]) => `${id} ${value}`).join(', ')}`);
    for (const finding of findings) console.log(`         ${finding}`);
    if (CATEGORIES.some((c) => scores[c] < 100)) failed = true;
  }
  const summary = {
    date: new Date().toISOString().slice(0, 10),
    lighthouse: (await import('lighthouse/package.json', { with: { type: 'json' } })).default.version,
    browser: version,
    formFactor: 'mobile',
    runsPerPage: RUNS,
    reported: 'median run by performance score',
    pages: Object.fromEntries(Object.entries(pages).map(([page, r]) => [page, { ...r.scores, metrics: r.metrics }])),
  };
  await writeFile(SUMMARY_FILE, `${JSON.stringify(summary, null, 2)}\n`);
  console.log(`wrote ${path.relative(ROOT, SUMMARY_FILE)}`);
} finally {
  await browser?.close();
  await stack?.stop();
  await Promise.all([rm(distDir, { recursive: true, force: true }), forgetBuild(distDir)]);
}
process.exit(failed ? 1 : 0);
