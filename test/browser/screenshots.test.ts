/**
 * The home page as the README shows it: desktop and mobile, light and dark, first viewport.
 * Each run overwrites docs/screenshots/home-{desktop,mobile}-{light,dark}.png; the files are
 * committed. The checks are what a screenshot is meant to show: the theme follows the system
 * setting, and the sign-up form starts above the fold.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest';
import { PAGE_PATHS } from '../../api/contract/paths.ts';
import { launchBrowser } from '../support/browser.ts';
import { ROOT } from '../support/stack.ts';
import { contrastRatio, luminance } from './support/contrast.ts';
import { field, signupForm } from './support/site.ts';

const { baseUrl } = inject('stack');
const OUT = path.join(ROOT, 'docs', 'screenshots');
const VIEWPORTS = {
  desktop: { width: 1280, height: 800 },
  mobile: { width: 390, height: 844 },
} as const;
const SCHEMES = ['light', 'dark'] as const;

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(() => browser?.close());

/** Width and height from a PNG's IHDR chunk. */
async function pngSize(file: string): Promise<{ width: number; height: number }> {
  const bytes = await readFile(file);
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}

describe('screenshots of the home page', () => {
  for (const [device, viewport] of Object.entries(VIEWPORTS)) {
    for (const colorScheme of SCHEMES) {
      const file = path.join(OUT, `home-${device}-${colorScheme}.png`);
      test(`screenshot home ${device} ${colorScheme}: the ${colorScheme} theme follows the system, the form starts above the fold -> ${path.relative(ROOT, file)}`, async () => {
        const context = await browser.newContext({ viewport, colorScheme });
        try {
          const page = await context.newPage();
          await page.goto(`${baseUrl}${PAGE_PATHS.home.en}`);
          await page.evaluate(() => document.fonts.ready);

          const colours = await page.evaluate(() => ({ bg: getComputedStyle(document.body).backgroundColor, fg: getComputedStyle(document.body).color }));
          if (colorScheme === 'light') expect(luminance(colours.bg)).toBeGreaterThan(0.8);
          else expect(luminance(colours.bg)).toBeLessThan(0.05);
          expect(contrastRatio(colours.bg, colours.fg), 'body text contrast').toBeGreaterThanOrEqual(7);

          const email = (await field(signupForm(page, 'hero'), 'email').boundingBox())!;
          expect(email.y + email.height, 'hero e-mail field above the fold').toBeLessThanOrEqual(viewport.height);

          await page.screenshot({ path: file });
          expect(await pngSize(file)).toEqual(viewport);
        } finally {
          await context.close();
        }
      });
    }
  }
});
