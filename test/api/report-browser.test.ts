/**
 * The html report as the operator opens it: the file from disk (file://) in Debian's Chromium with
 * every network request refused and counted (there must be none), in light and dark at desktop and
 * phone widths (docs/screenshots/report-*.png, overwritten each run), without a WCAG 2.2 A/AA
 * violation (axe), and printable on A4. The page is made once, by the real command.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { AxeBuilder } from '@axe-core/playwright';
import type { RunOptions } from 'axe-core';
import type { Browser, BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JsonWaitlistStore } from '../../api/sidecar/store/json/waitlist-store.ts';
import { launchBrowser } from '../support/browser.ts';
import { runCommand, ROOT } from './support/cli.ts';
import { FIXTURE, NOW } from './support/report-fixture.ts';

const VIEWPORTS = { desktop: { width: 1280, height: 800 }, mobile: { width: 390, height: 844 } } as const;
const SCHEMES = ['light', 'dark'] as const;
const WCAG_22_AA = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];
/**
 * Every rule runs on every node either way; axe lists every node of a violation, and one node per
 * rule of the rest (each listed node costs a unique selector and its HTML, sent out of the page).
 * They are given before the tags: AxeBuilder's options() replaces the run options, tags included.
 */
const RESULT_TYPES: RunOptions['resultTypes'] = ['violations'];

let dir: string;
let url: string;
let browser: Browser;
/** Every request any page made that was not for a local file. */
const refused: string[] = [];

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'report-browser-'));
  const store = await JsonWaitlistStore.open(dir);
  for (const [signup, channel, at] of FIXTURE) await store.upsert(signup, channel, at);
  await store.close();
  const file = join(dir, 'report.html');
  const run = await runCommand('scripts/waitlist.ts', ['report', '--now', NOW, '--out', file], { DATA_DIR: dir });
  if (run.code !== 0) throw new Error(`report failed: ${run.stderr}`);
  url = pathToFileURL(file).href;
  browser = await launchBrowser();
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await rm(dir, { recursive: true, force: true });
});

/** A context in which every request but file:// is refused and recorded. */
async function offline(options: Parameters<Browser['newContext']>[0]): Promise<BrowserContext> {
  const context = await browser.newContext(options);
  await context.route('**', (route) => {
    const requested = route.request().url();
    if (requested.startsWith('file:')) return route.continue();
    refused.push(requested);
    return route.abort('blockedbyclient');
  });
  context.on('request', (request) => {
    if (!request.url().startsWith('file:')) refused.push(request.url());
  });
  return context;
}

describe('the html report in Chromium', { timeout: 60_000 }, () => {
  for (const [device, viewport] of Object.entries(VIEWPORTS)) {
    it(`report ${device}: opens from disk with no network request, fits ${viewport.width} px, follows the colour scheme -> docs/screenshots/report-${device}-*.png`, async () => {
      const backgrounds = new Set<string>();
      for (const colorScheme of SCHEMES) {
        const context = await offline({ viewport, colorScheme });
        try {
          const page = await context.newPage();
          await page.goto(url, { waitUntil: 'load' });
          // The charts are in the file itself: there when it has loaded, nothing drawn afterwards.
          expect(await page.locator('.chart svg').count()).toBe(8);
          const look = await page.evaluate(() => ({
            bg: getComputedStyle(document.body).backgroundColor,
            fg: getComputedStyle(document.body).color,
            axisText: getComputedStyle(document.querySelector('.chart svg text')!).fill,
            scrollWidth: document.documentElement.scrollWidth,
          }));
          backgrounds.add(look.bg);
          // The charts' text is drawn in the page's text colour, whichever the scheme.
          expect(look.axisText).toBe(look.fg);
          expect(look.scrollWidth, 'no horizontal scrolling').toBeLessThanOrEqual(viewport.width);
          await page.screenshot({ path: join(ROOT, 'docs', 'screenshots', `report-${device}-${colorScheme}.png`) });
        } finally {
          await context.close();
        }
      }
      expect(backgrounds.size, 'light and dark look different').toBe(2);
      expect(refused).toEqual([]);
    });
  }

  // Every table comes from one function (html.ts, from charts.ts); axe over all of them costs ~10 s a scheme,
  // so the day table and the share table are opened, which covers each kind of row and cell.
  it('report: axe finds no WCAG 2.2 A/AA violation, light or dark, with the day table and the share table open', async () => {
    // One page per scheme, side by side: axe is CPU-bound and Chromium gives each page its own process.
    await Promise.all(
      SCHEMES.map(async (colorScheme) => {
        const context = await offline({ viewport: VIEWPORTS.desktop, colorScheme });
        try {
          const page = await context.newPage();
          await page.goto(url);
          await page.evaluate(() => {
            for (const chart of ['per-day', 'shares']) document.querySelector(`[data-chart="${chart}"]`)!.closest('details')!.open = true;
          });
          const results = await new AxeBuilder({ page }).options({ resultTypes: RESULT_TYPES }).setLegacyMode(true).withTags(WCAG_22_AA).analyze();
          const found = results.violations.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).slice(0, 3).join(', ')})`);
          expect(found, colorScheme).toEqual([]);
          expect(results.passes.map((p) => p.id)).toContain('color-contrast');
        } finally {
          await context.close();
        }
      }),
    );
    expect(refused).toEqual([]);
  });

  it('report: prints on A4 pages, a chart never split across two', async () => {
    const context = await offline({});
    try {
      const page = await context.newPage();
      await page.goto(url);
      const pdf = await page.pdf({ preferCSSPageSize: true });
      const text = pdf.toString('latin1');
      const sizes = [...text.matchAll(/\/MediaBox\s*\[\s*0 0 ([\d.]+) ([\d.]+)\s*\]/g)].map((m) => [Math.round(Number(m[1])), Math.round(Number(m[2]))]);
      expect(sizes.length).toBeGreaterThan(1);
      // A4 is 210 × 297 mm: 595 × 842 points.
      for (const size of sizes) expect(size).toEqual([595, 842]);
      await page.emulateMedia({ media: 'print' });
      const avoid = await page.evaluate(() => [...document.querySelectorAll('section')].map((s) => getComputedStyle(s).breakInside));
      expect(new Set(avoid)).toEqual(new Set(['avoid']));
    } finally {
      await context.close();
    }
    expect(refused).toEqual([]);
  });

  it('report: the page was written by the command as one file with nothing to fetch', async () => {
    const html = await readFile(new URL(url), 'utf8');
    expect(html).toContain('Content-Security-Policy');
    expect(html).not.toMatch(/\s(src|href)=/);
  });
});
