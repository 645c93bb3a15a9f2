/**
 * The built site under test: the run's one build (test/support/global-setup.ts builds it on the
 * first file's demand, as `npm run build` does, for the run's stack), and the BASE_URL the build
 * used, read back from the home page's canonical link.
 */
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { API_PATHS, DISCOVERY_PATHS, ENV_PREFIX, PAGE_PATHS, environmentUrls } from '../../../api/contract/paths.ts';
import { ENVIRONMENTS } from '../../../api/contract/enums.ts';
import { need } from '../../support/services.ts';

export const DIST = (await need<{ distDir: string }>('site')).distDir;

export function requireBuild(dist = DIST): void {
  if (!existsSync(path.join(dist, 'index.html'))) {
    throw new Error(`${dist} has no built site`);
  }
}

/** The origin the site in `dist` was built for. */
export function builtBaseUrl(dist = DIST): string {
  requireBuild(dist);
  const canonical = /<link rel="canonical" href="([^"]+)\/"/.exec(readFileSync(path.join(dist, 'index.html'), 'utf8'));
  if (!canonical) throw new Error(`${dist}/index.html has no canonical link`);
  return canonical[1];
}

export const BASE_URL = builtBaseUrl();

export function read(file: string, dist = DIST): string {
  return readFileSync(path.join(dist, file), 'utf8');
}

/** Every file under dist, relative, with forward slashes. */
export function files(dist = DIST): string[] {
  return (readdirSync(dist, { recursive: true }) as string[])
    .filter((f) => statSync(path.join(dist, f)).isFile())
    .map((f) => f.split(path.sep).join('/'));
}

/** The file a root-relative URL path is served from (directory format), or undefined. */
export function fileFor(urlPath: string, dist = DIST): string | undefined {
  const clean = decodeURIComponent(urlPath.split(/[?#]/)[0]);
  const candidate = clean.endsWith('/') ? `${clean}index.html` : clean;
  const file = path.join(dist, candidate);
  return existsSync(file) && statSync(file).isFile() ? candidate.slice(1) : undefined;
}

/** HTML file of a page path: `/thanks/` -> `thanks/index.html`, `/404.html` -> `404.html`. */
export function htmlFileOf(pagePath: string): string {
  return pagePath.endsWith('/') ? `${pagePath.slice(1)}index.html` : pagePath.slice(1);
}

/** URLs the contract defines that are served by the API or other teammates' documents, not by a page. */
const contractUrlCache = new Map<string, Set<string>>();
export function contractUrls(base = BASE_URL): Set<string> {
  const cached = contractUrlCache.get(base);
  if (cached) return cached;
  const urls = new Set<string>();
  contractUrlCache.set(base, urls);
  for (const env of ENVIRONMENTS) {
    for (const url of Object.values(environmentUrls(base, env))) urls.add(url);
    for (const p of Object.values(API_PATHS)) urls.add(`${base}${ENV_PREFIX[env]}${p}`);
  }
  for (const p of Object.values(DISCOVERY_PATHS)) urls.add(`${base}${p}`);
  for (const langs of Object.values(PAGE_PATHS)) for (const p of Object.values(langs)) urls.add(`${base}${p}`);
  return urls;
}

/**
 * Whether an absolute URL on this site resolves: a built file, or a URL the contract defines
 * (API operations and documents whose presence other suites test).
 */
export function resolves(url: string, dist = DIST, base = BASE_URL): boolean {
  if (!url.startsWith(`${base}/`)) return false;
  const pathname = new URL(url).pathname;
  return fileFor(pathname, dist) !== undefined || contractUrls(base).has(`${base}${pathname}`);
}

/** Every built HTML page: its file and the page path its twin is named after (twinPath). */
export function htmlPages(dist = DIST): { file: string; route: string }[] {
  return files(dist)
    .filter((f) => f.endsWith('.html') && (f === 'index.html' || f.endsWith('/index.html') || /(^|\/)404\.html$/.test(f)))
    .map((file) => ({ file, route: `/${file.replace(/index\.html$/, '').replace(/404\.html$/, '404/')}` }));
}
