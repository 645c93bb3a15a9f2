/**
 * dist/ loaded into memory at start: the URL table of the site. Requests are answered from this
 * table only; the walk does not follow symbolic links, so nothing outside dist/ can be reached.
 */
import path from 'node:path';
import { DISCOVERY_PATHS, LANGS, PAGE_PATHS, canonicalOfTwin, twinPath } from '../contract/index.ts';
import { CACHE_IMMUTABLE, CACHE_REVALIDATE, agentHeaders, contentSignalOf, link, type Described } from './headers.ts';
import { ALIASES, FALLBACK_TYPE, HTML_TYPE, JSON_TYPE, MARKDOWN_TYPE, contentTypeOf } from './media-types.ts';
import type { Primary } from './negotiate.ts';
import { represent, type Representation } from './representation.ts';
import { readSite } from './codings.ts';

export type Route =
  /** `html` is the primary representation (HTML, or JSON for a document such as /openapi.json). */
  | { kind: 'page'; primary: Primary; html: Representation; markdown?: Representation }
  | { kind: 'file'; rep: Representation }
  | { kind: 'redirect'; location: string };

export type Site = Awaited<ReturnType<typeof loadSite>>;

/** 404 pages, per language prefix: served with status 404 only, never as a 200 at their own address. */
const NOT_FOUND_PREFIXES = LANGS.map((lang) => PAGE_PATHS.home[lang]).sort((a, b) => b.length - a.length);
const notFoundFiles = (prefix: string) => ({ html: `${prefix}404.html`, markdown: twinPath(`${prefix}404/`) });

export async function loadSite(distDir: string, baseUrl: string) {
  const { files, stored } = await readSite(path.resolve(distDir));
  if (!files.size) throw new Error(`${distDir} holds no files: build the site first (npm run build)`);
  const hidden = new Set<string>([...Object.values(ALIASES), ...NOT_FOUND_PREFIXES.flatMap((p) => Object.values(notFoundFiles(p)))]);
  const pages = new Set([...files.keys()].filter((p) => p.endsWith('/index.html')).map((p) => p.slice(0, -'index.html'.length)));
  const homes = new Set<string>(Object.values(PAGE_PATHS.home));
  const catalogLink = link(`${baseUrl}${DISCOVERY_PATHS.apiCatalog}`, 'api-catalog');
  // The operator's content-use preferences, as the build wrote them into robots.txt.
  const signal = contentSignalOf(files.get(DISCOVERY_PATHS.robots)?.toString('utf8') ?? '');
  const load = (file: string, meta: Described) => represent(files.get(file)!, meta, agentHeaders(files.get(file)!, meta.contentType, signal), stored.get(file));
  const routes = new Map<string, Route>();
  const pending: Promise<void>[] = [];

  for (const dir of pages) {
    const twin = files.has(twinPath(dir)) ? twinPath(dir) : undefined;
    const vary = twin ? ['Accept'] : [];
    const extra = homes.has(dir) ? [catalogLink] : [];
    const htmlLinks = [...(twin ? [link(`${baseUrl}${twin}`, 'alternate', 'text/markdown')] : []), ...extra];
    pending.push(
      (async () => {
        const html = await load(`${dir}index.html`, described(dir, HTML_TYPE, htmlLinks, vary));
        const markdown = twin ? await load(twin, described(dir, MARKDOWN_TYPE, [link(`${baseUrl}${dir}`, 'canonical'), ...extra], vary)) : undefined;
        routes.set(dir, { kind: 'page', primary: 'html', html, markdown });
      })(),
    );
    routes.set(`${dir}index.html`, { kind: 'redirect', location: dir });
    if (dir !== '/' && !files.has(dir.slice(0, -1))) routes.set(dir.slice(0, -1), { kind: 'redirect', location: dir });
  }

  const aliasOf = new Map(Object.entries(ALIASES).map(([url, file]) => [file, url]));
  for (const file of files.keys()) {
    if (file.endsWith('/index.html')) continue;
    const url = aliasOf.get(file) ?? file;
    if (hidden.has(file) && !aliasOf.has(file)) continue;
    const canonical = canonicalOfTwin(url);
    const links = [
      ...(canonical && (pages.has(canonical) || files.has(canonical)) ? [link(`${baseUrl}${canonical}`, 'canonical')] : []),
      ...(url === DISCOVERY_PATHS.apiCatalog ? [catalogLink] : []),
    ];
    const type = contentTypeOf(url) ?? FALLBACK_TYPE;
    const twin = `${url}.md`;
    if (type === JSON_TYPE && files.has(twin)) {
      // A JSON document with a Markdown twin (/openapi.json): negotiable like a page.
      pending.push(
        Promise.all([
          load(file, described(url, type, [...links, link(`${baseUrl}${twin}`, 'alternate', 'text/markdown')], ['Accept'])),
          load(twin, described(url, MARKDOWN_TYPE, [link(`${baseUrl}${url}`, 'canonical')], ['Accept'])),
        ]).then(([json, markdown]) => void routes.set(url, { kind: 'page', primary: 'json', html: json, markdown })),
      );
      continue;
    }
    pending.push(load(file, described(url, type, links, [])).then((rep) => void routes.set(url, { kind: 'file', rep })));
  }

  /** A 404 body in both variants (either may be missing from a build), per language prefix. */
  const notFound = new Map<string, { html?: Representation; markdown?: Representation }>();
  for (const prefix of NOT_FOUND_PREFIXES) {
    const names = notFoundFiles(prefix);
    const both = files.has(names.html) && files.has(names.markdown);
    const page = (name: string, type: string) =>
      files.has(name) ? load(name, { ...described(name, type, [], both ? ['Accept'] : []), cacheControl: CACHE_REVALIDATE, validators: false }) : undefined;
    pending.push(
      Promise.all([page(names.html, HTML_TYPE), page(names.markdown, MARKDOWN_TYPE)]).then(([html, markdown]) => {
        if (html || markdown) notFound.set(prefix, { html, markdown });
      }),
    );
  }

  await Promise.all(pending);
  const root = notFound.get('/') ?? {};
  return {
    routes,
    /** The 404 body for a path: the language's own 404 page under its prefix (e.g. /de/). */
    notFound: (urlPath: string) => notFound.get(NOT_FOUND_PREFIXES.find((p) => urlPath.startsWith(p)) ?? '/') ?? root,
  };
}

function described(urlPath: string, contentType: string, links: string[], vary: string[]): Described {
  const cacheControl = urlPath.startsWith('/_astro/') ? CACHE_IMMUTABLE : CACHE_REVALIDATE;
  return { contentType, cacheControl, links, vary, validators: true };
}
