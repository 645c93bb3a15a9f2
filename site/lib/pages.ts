/** Every page of the site, from every collection in PAGE_COLLECTIONS: the one list every route reads (docs/site.md). */
import { getCollection } from 'astro:content';
import { DEFAULT_LANG, LANGS, type Lang } from '../../api/contract/enums.ts';
import { twinPath } from '../../api/contract/paths.ts';
import { parseMarkdown, walk } from '../../api/docs/markdown.ts';
import { BROKEN_ENTRY } from './loaders.ts';
import type { PageData } from './page-schema.ts';
import { fillHtml, fillText } from './placeholders.ts';

/** Collections whose entries are pages (same frontmatter schema, rendered Markdown body). */
export const PAGE_COLLECTIONS = ['pages', 'reference'] as const;

interface Entry {
  id: string;
  collection: string;
  data: PageData;
  body?: string;
  filePath?: string;
  rendered?: { html: string };
}

/** docs/site.md, "Body rules": the layout writes the title as the only H1, and twins stay clean Markdown. */
function checkPageMarkdown(markdown: string, source: string): void {
  for (const node of walk(parseMarkdown(markdown))) {
    const line = node.position ? ` (body line ${node.position.start.line})` : '';
    if (node.type === 'heading' && node.depth === 1) {
      throw new Error(`${source}${line}: the body must not contain an H1 (# …); the title is the H1. Start sections with ##.`);
    }
    if (node.type === 'html') {
      throw new Error(`${source}${line}: raw HTML is not allowed in page Markdown (twins must be clean Markdown): ${node.value.slice(0, 60)}`);
    }
  }
}

function toPage(entry: Entry) {
  const source = entry.filePath ?? `${entry.collection}:${entry.id}`;
  // Only in the preview: a save whose frontmatter failed (site/lib/loaders.ts).
  if (BROKEN_ENTRY in entry.data) throw new Error((entry.data as unknown as Record<string, string>)[BROKEN_ENTRY]);
  const [first, ...rest] = entry.id.split('/');
  const lang = LANGS.find((l) => l === first);
  if (!lang) throw new Error(`${source}: a page lives in a language folder (${LANGS.join(', ')}), e.g. content/en/…`);
  if (entry.body === undefined || entry.rendered === undefined) throw new Error(`${source}: page entries need a Markdown body`);
  checkPageMarkdown(entry.body, source);
  // A file named 404.md is served for unknown paths, never listed.
  const kind = rest.at(-1) === '404' ? 'notFound' : 'page';
  const route = `${lang === DEFAULT_LANG ? '' : `/${lang}`}/${rest.map((s) => `${s}/`).join('')}`;
  return {
    ...entry.data,
    source,
    lang,
    kind,
    title: fillText(entry.data.title, lang, source),
    description: fillText(entry.data.description, lang, source),
    /** URL path of the HTML page: `/`, `/de/danke/`; `/404.html` for a notFound page. */
    path: kind === 'notFound' ? route.replace(/\/$/, '.html') : route,
    /** Route parameter of site/pages/[...slug].astro (undefined for `/`). */
    slug: route.slice(1, -1) || undefined,
    /** URL path of the Markdown twin: `/index.md`, `/de/danke.md`. */
    twin: twinPath(route),
    /** Route parameter of site/pages/[...slug].md.ts. */
    twinSlug: twinPath(route).slice(1, -'.md'.length),
    markdown: fillText(entry.body, lang, source),
    html: fillHtml(entry.rendered.html, lang, source),
  };
}

/** A page with its translations: the URL path of the page in every language, itself included. */
export type Page = ReturnType<typeof toPage> & { alternates: Record<Lang, string> };

/** Pairs translations by key; a key must exist once in every language. */
function pair(pages: ReturnType<typeof toPage>[]): Page[] {
  const byKey = new Map<string, Map<Lang, ReturnType<typeof toPage>>>();
  const byPath = new Map<string, string>();
  for (const page of pages) {
    const other = byPath.get(page.path);
    if (other) throw new Error(`${page.source} and ${other} both produce ${page.path}`);
    byPath.set(page.path, page.source);
    const langs = byKey.get(page.key) ?? new Map();
    const twin = langs.get(page.lang);
    if (twin) throw new Error(`${page.source} and ${twin.source} both have key "${page.key}" in language ${page.lang}`);
    byKey.set(page.key, langs.set(page.lang, page));
  }
  return pages.map((page) => {
    const langs = byKey.get(page.key)!;
    const alternates = {} as Record<Lang, string>;
    for (const lang of LANGS) {
      const translation = langs.get(lang);
      if (!translation) {
        throw new Error(`${page.source} (key "${page.key}") has no ${lang} translation: add a page with key: ${page.key} under the ${lang} folder`);
      }
      alternates[lang] = translation.path;
    }
    return { ...page, alternates };
  });
}

/** Every page, sorted by `order`, then language, then path. */
export async function getAllPages(): Promise<Page[]> {
  const entries: Entry[] = [];
  for (const name of PAGE_COLLECTIONS) entries.push(...((await getCollection(name)) as Entry[]));
  return pair(entries.map(toPage)).sort(
    (a, b) => a.order - b.order || LANGS.indexOf(a.lang) - LANGS.indexOf(b.lang) || a.path.localeCompare(b.path),
  );
}
