// The static site: Markdown pages from content/, their .md twins and the discovery files, all
// written to DIST_DIR as plain files (no adapter: the Node front in api/front serves them).
import { rename, readdir, rmdir } from 'node:fs/promises';
import { createHash } from 'node:crypto';
import { join, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'astro/config';
import { configOrExit } from './api/config.ts';
import { productionGuardOrExit } from './site/lib/production-guard.ts';

// The base URL is set in exactly one place: BASE_URL, parsed by api/config.ts.
const config = configOrExit();
const { BASE_URL, DIST_DIR } = config;
// A public (https://) site never ships the sample imprint or security contact.
productionGuardOrExit(config);

/**
 * Astro names only `/404` specially; every page whose route ends in /404/ (e.g. /de/404/) is moved
 * from `…/404/index.html` to `…/404.html`, where the front and static hosts look for it.
 */
const statusPages = {
  name: 'status-pages',
  hooks: {
    'astro:build:done': async ({ dir }) => {
      const root = fileURLToPath(dir);
      for (const entry of await readdir(root, { recursive: true })) {
        const parts = entry.split(sep);
        if (parts.at(-1) !== 'index.html' || parts.at(-2) !== '404') continue;
        const folder = join(root, ...parts.slice(0, -1));
        await rename(join(root, entry), `${folder}.html`);
        await rmdir(folder).catch(() => {});
      }
    },
  },
};

export default defineConfig({
  site: BASE_URL,
  srcDir: './site',
  publicDir: './site/public',
  outDir: DIST_DIR,
  // A cache per project and per DIST_DIR: a temp copy of the project (tests) never shares
  // node_modules/.astro, and two builds into different directories at once never share a cache.
  cacheDir: `./.astro/cache/${createHash('sha256').update(resolve(fileURLToPath(new URL('.', import.meta.url)), DIST_DIR)).digest('hex').slice(0, 12)}`,
  output: 'static',
  trailingSlash: 'always',
  build: {
    format: 'directory',
    // CSP `style-src 'self'`: no inline <style>; every stylesheet is a file.
    inlineStylesheets: 'never',
  },
  // CSP forbids style="" too, and Shiki writes inline colours into code blocks.
  markdown: { syntaxHighlight: false },
  prefetch: false,
  devToolbar: { enabled: false },
  integrations: [statusPages],
  vite: {
    // CSP `script-src 'self'`: Vite would otherwise inline small modules and assets as data: URIs.
    build: { assetsInlineLimit: 0 },
  },
});
