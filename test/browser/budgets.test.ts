/**
 * Page budgets of the home pages, measured in a fresh browser context (empty cache) on the real
 * stack: no third-party request, at most 50 KB transferred before images, no layout shift while
 * loading, and usable on a 320 px wide screen.
 */
import type { Page } from 'playwright-core';
import { describe, expect, inject, test } from 'vitest';
import { LANGS, SOURCES, type Lang } from '../../api/contract/enums.ts';
import { PAGE_PATHS } from '../../api/contract/paths.ts';
import '../support/stack.ts';
import { layoutShiftAfterLoad, watchLayoutShift } from './support/layout-shift.ts';
import { isImage, recordNetwork } from './support/network.ts';
import { pagePerTest } from './support/page-per-test.ts';
import { field, signupForm } from './support/site.ts';

const { baseUrl } = inject('stack');
/** 50 KB read the strict way: 50,000 bytes, headers included. */
const TRANSFER_BUDGET_BYTES = 50_000;
/** WCAG 1.4.10 Reflow: content fits 320 CSS px without scrolling sideways. */
const NARROW = { width: 320, height: 640 };

const pageIn = pagePerTest();
const newPage = (viewport = { width: 1280, height: 800 }): Promise<Page> => pageIn({ viewport });

const home = (lang: Lang) => `${baseUrl}${PAGE_PATHS.home[lang]}`;

describe('budgets of the home page', () => {
  for (const lang of LANGS) {
    test(`budget ${PAGE_PATHS.home[lang]}: every request goes to the site's own origin; at most 50 KB transferred (compressed) before images`, async () => {
      const page = await newPage();
      const network = await recordNetwork(page);
      await page.goto(home(lang), { waitUntil: 'load' });
      const transfers = await network.settled();

      const origin = new URL(baseUrl).origin;
      expect(network.requested.filter((url) => new URL(url).origin !== origin)).toEqual([]);
      const document = transfers.find((t) => t.type === 'Document');
      // Chromium asks for br/gzip; the front must have used one, or the count below is of raw bytes.
      expect(document?.contentEncoding).toMatch(/^(br|gzip)$/);
      const counted = transfers.filter((t) => !isImage(t));
      const total = counted.reduce((sum, t) => sum + t.bytes, 0);
      const detail = counted.map((t) => `${t.bytes} B ${t.type} ${t.contentEncoding ?? 'identity'} ${t.url}`).join('\n');
      expect(total, detail).toBeLessThanOrEqual(TRANSFER_BUDGET_BYTES);
      expect(counted.some((t) => t.type === 'Stylesheet'), 'the stylesheet was counted').toBe(true);
    });

    for (const viewport of [{ width: 1280, height: 800 }, NARROW]) {
      test(`budget ${PAGE_PATHS.home[lang]} at ${viewport.width} px: no layout shift while loading`, async () => {
        const page = await newPage(viewport);
        await watchLayoutShift(page);
        await page.goto(home(lang), { waitUntil: 'load' });
        const shift = await layoutShiftAfterLoad(page);
        expect(shift.supported).toBe(true);
        expect(shift.total, `shifted: ${shift.sources.join(', ')}`).toBe(0);
      });
    }

    test(`budget ${PAGE_PATHS.home[lang]} at 320 px: no horizontal scrolling; every field and button of both forms is visible and fits`, async () => {
      const page = await newPage(NARROW);
      await page.goto(home(lang));
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(NARROW.width);
      for (const source of SOURCES) {
        const form = signupForm(page, source);
        const controls = [
          ...(['email', 'role', 'building', 'consent'] as const).map((name) => ({ name, locator: field(form, name) })),
          { name: 'button', locator: form.getByRole('button') },
        ];
        for (const { name, locator } of controls) {
          await locator.scrollIntoViewIfNeeded();
          expect(await locator.isVisible(), `${source} ${name}`).toBe(true);
          const box = (await locator.boundingBox())!;
          expect(box.x, `${source} ${name} left edge`).toBeGreaterThanOrEqual(0);
          expect(box.x + box.width, `${source} ${name} right edge`).toBeLessThanOrEqual(NARROW.width);
          // Large enough to hit with a finger (WCAG 2.5.8 Target Size: at least 24 x 24 px).
          expect(Math.min(box.width, box.height), `${source} ${name} size`).toBeGreaterThanOrEqual(24);
        }
      }
    });
  }
});
