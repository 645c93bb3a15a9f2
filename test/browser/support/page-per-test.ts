/**
 * One browser for the test file and a fresh context (empty cache, own settings) for every page a
 * test opens; each context is closed when its test ends (tests may run concurrently, so each test
 * closes only its own), the browser after the file.
 */
import type { Browser, BrowserContext, BrowserContextOptions, Page } from 'playwright-core';
import { afterAll, beforeAll, type OnTestFinishedHandler } from 'vitest';
import { launchBrowser } from '../../support/browser.ts';

/** The test context's `onTestFinished`: the hook of the test that opened the page. */
export type OnFinished = (fn: OnTestFinishedHandler) => void;

export function pagePerTest(defaultTimeoutMs = 8_000): (onFinished: OnFinished, options?: BrowserContextOptions) => Promise<Page> {
  let launching: Promise<Browser> | undefined;
  beforeAll(() => {
    // Not awaited: the file's own set-up (servers, stacks) goes on while Chromium starts; the
    // first page waits for it, and a failed start fails that test with Chromium's error.
    launching = launchBrowser();
    launching.catch(() => {});
  });
  afterAll(async () => {
    const browser = await launching?.catch(() => undefined);
    await browser?.close();
  });
  return async (onFinished, options) => {
    const browser = await launching!;
    const context: BrowserContext = await browser.newContext(options);
    onFinished(() => context.close());
    context.setDefaultTimeout(defaultTimeoutMs);
    return context.newPage();
  };
}
