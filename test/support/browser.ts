/**
 * The one way tests and scripts start a browser: Debian's Chromium (installed by `.ci/run` with
 * `apt-get install chromium`) driven by playwright-core, which never downloads a browser of its own.
 * One browser per test file; a new context per test.
 */
import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';

export const CHROMIUM_PATH = '/usr/bin/chromium';

/**
 * We run as root (no sandbox), without a GPU, and on a closed network: every background service
 * that would call home is switched off, so the only requests are the ones a page makes.
 */
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
] as const;

export function launchBrowser(): Promise<Browser> {
  if (!existsSync(CHROMIUM_PATH)) {
    throw new Error(`No Chromium at ${CHROMIUM_PATH}: install Debian's with \`apt-get install -y chromium\` (as .ci/run does).`);
  }
  return chromium.launch({ executablePath: CHROMIUM_PATH, args: [...CHROMIUM_ARGS] });
}
