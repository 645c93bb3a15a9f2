/**
 * One browser for the test file and a fresh context (empty cache, own settings) for every page a
 * test opens; the contexts are closed after each test, the browser after the file.
 */
import type { Browser, BrowserContext, BrowserContextOptions, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { launchBrowser } from '../../support/browser.ts';

export function pagePerTest(defaultTimeoutMs = 8_000): (options?: BrowserContextOptions) => Promise<Page> {
  let browser: Browser;
  const open: BrowserContext[] = [];
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterEach(async () => {
    await Promise.all(open.splice(0).map((context) => context.close()));
  });
  afterAll(() => browser?.close());
  return async (options) => {
    const context = await browser.newContext(options);
    open.push(context);
    context.setDefaultTimeout(defaultTimeoutMs);
    return context.newPage();
  };
}
