/**
 * The one way tests and scripts start a browser, driven by playwright-core, which never downloads
 * a browser of its own. Tests use Debian's Chromium headless shell (`apt-get install
 * chromium-headless-shell`, as `.ci/run` does): the same Blink and V8 as `chromium`, without the
 * desktop browser around them, and a third of its CPU for the same pages (the axe file: 28
 * core-seconds against 85). Lighthouse wants the full browser (`apt-get install chromium`).
 * One browser per test file; a new context per test.
 */
import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';

export const HEADLESS_SHELL_PATH = '/usr/bin/chromium-headless-shell';
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
  if (!existsSync(HEADLESS_SHELL_PATH)) {
    throw new Error(`No Chromium headless shell at ${HEADLESS_SHELL_PATH}: install Debian's with \`apt-get install -y chromium-headless-shell\` (as .ci/run does).`);
  }
  return chromium.launch({ executablePath: HEADLESS_SHELL_PATH, args: [...CHROMIUM_ARGS] });
}
