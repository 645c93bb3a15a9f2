/**
 * axe-core on each kind of page in both languages, in the light and the dark colour scheme: no
 * violation of WCAG 2.0, 2.1 and 2.2 at levels A and AA. The kinds: the home page (the sign-up
 * forms), the API guide (code blocks), the API reference (built from the OpenAPI document), a
 * prose page (the privacy notice: the thanks and imprint pages are built from the same parts) and
 * the 404 page. Every sitemap page of another kind would fail this file's first test.
 */
import { AxeBuilder } from '@axe-core/playwright';
import type { Result, RunOptions } from 'axe-core';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest';
import { LANGS } from '../../api/contract/enums.ts';
import { DISCOVERY_PATHS, PAGE_PATHS } from '../../api/contract/paths.ts';
import { launchBrowser } from '../support/browser.ts';
import '../support/stack.ts';
import { checkOverGradient, undecidedContrast } from './support/contrast.ts';

const { baseUrl } = inject('stack');
const WCAG_22_AA = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];
const SCHEMES = ['light', 'dark'] as const;
/**
 * Up to vitest's maxConcurrency pages share two cores with the other worker (the API reference is
 * the largest page): room for waiting, not a speed limit.
 */
const PAGE_TIMEOUT_MS = 120_000;
/**
 * Every rule runs on every node either way; axe then lists every node of what failed or stayed
 * undecided, and one node per rule of what passed. The passes are only asked for their rule ids
 * here, and listing each of their nodes (a unique selector and the HTML of each, sent out of the
 * page) costs more than the audit itself on the API reference. They are given before the tags:
 * AxeBuilder's options() replaces the run options, tags included.
 */
const RESULT_TYPES: RunOptions['resultTypes'] = ['violations', 'incomplete'];

/** The sitemap's <loc>s: absolute URLs on this stack, which the site was built for. */
const sitemap = await (await fetch(`${baseUrl}${DISCOVERY_PATHS.sitemap}`)).text();
const listed = [...sitemap.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => new URL(m[1]).pathname);
/** One page of each kind, per language. */
const KINDS = { home: PAGE_PATHS.home, guide: PAGE_PATHS.guide, reference: PAGE_PATHS.reference, prose: PAGE_PATHS.privacy };
/** Pages built from the same parts as the prose page. */
const PROSE_LIKE = [PAGE_PATHS.thanks, PAGE_PATHS.imprint];
const pages: string[] = Object.values(KINDS).flatMap((paths) => LANGS.map((lang) => paths[lang]));
/** An address that exists in no language: each language's 404 page. */
const missing = LANGS.map((lang) => `${PAGE_PATHS.home[lang]}no-such-page/`);

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(() => browser?.close());

function report(violations: Result[]): string {
  return violations
    .map((v) => `${v.id} (${v.impact}): ${v.help}\n${v.nodes.map((n) => `    ${n.target.join(' ')}: ${n.failureSummary}`).join('\n')}`)
    .join('\n');
}

describe('axe-core, WCAG 2.2 AA', () => {
  test('axe: the sitemap lists both languages, and each of its pages is of a kind checked here', () => {
    for (const home of Object.values(PAGE_PATHS.home)) expect(listed).toContain(home);
    const prose = PROSE_LIKE.flatMap((paths) => LANGS.map((lang) => paths[lang]));
    expect(listed.filter((path) => !pages.includes(path) && !prose.includes(path))).toEqual([]);
  });

  // Concurrent (vitest maxConcurrency): axe is CPU-bound, and Chromium runs each page in its own
  // renderer process, so both cores work.
  for (const path of [...pages, ...missing]) {
    test.concurrent(`axe ${path} (light, then dark): no WCAG 2.2 A/AA violations`, async ({ expect }) => {
      const context = await browser.newContext({ colorScheme: SCHEMES[0] });
      try {
        const page = await context.newPage();
        const response = await page.goto(`${baseUrl}${path}`);
        expect(response?.status()).toBe(missing.includes(path) ? 404 : 200);
        // Legacy mode runs axe inside the page in one pass; it cannot enter cross-origin frames,
        // and the site has no frames at all.
        expect(page.frames()).toHaveLength(1);
        const backgrounds = new Set<string>();
        for (const colorScheme of SCHEMES) {
          await page.emulateMedia({ colorScheme });
          backgrounds.add(await page.evaluate(() => getComputedStyle(document.body).backgroundColor));
          const results = await new AxeBuilder({ page }).options({ resultTypes: RESULT_TYPES }).setLegacyMode(true).withTags(WCAG_22_AA).analyze();
          expect(results.violations, `${colorScheme}:\n${report(results.violations)}`).toEqual([]);
          // axe really looked: the page's text colours were among the checks that passed.
          expect(results.passes.map((p) => p.id)).toContain('color-contrast');
          // What axe could not decide is decided here, or fails: text over a gradient is checked
          // against each colour stop; any other undecided contrast is a failure.
          const undecided = undecidedContrast(results.incomplete);
          expect(undecided.other.map((n) => `${n.target.join(' ')}: ${n.any.map((c) => c.message).join()}`)).toEqual([]);
          for (const check of await checkOverGradient(page, undecided.gradient)) {
            expect(check.ratio, `${colorScheme} ${check.target}: ${check.text} on ${check.stops.join(' -> ')}`).toBeGreaterThanOrEqual(check.required);
          }
        }
        expect(backgrounds.size, 'the two schemes look different').toBe(SCHEMES.length);
      } finally {
        await context.close();
      }
    }, PAGE_TIMEOUT_MS);
  }
});

