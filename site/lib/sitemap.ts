/** /sitemap.xml (sitemaps.org 0.9) with hreflang alternates, x-default included; HTML pages only. */
import { SitemapStream, streamToPromise } from 'sitemap';
import { DEFAULT_LANG, LANGS } from '../../api/contract/enums.ts';
import type { Page } from './pages.ts';

export async function buildSitemap(pages: readonly Page[], baseUrl: string): Promise<string> {
  const stream = new SitemapStream({ hostname: baseUrl, lastmodDateOnly: true, xmlns: { xhtml: true, news: false, image: false, video: false } });
  for (const page of pages) {
    if (page.kind !== 'page') continue;
    stream.write({
      url: `${baseUrl}${page.path}`,
      lastmod: page.updated?.toISOString().slice(0, 10),
      links: [
        ...LANGS.map((lang) => ({ lang, url: `${baseUrl}${page.alternates[lang]}` })),
        { lang: 'x-default', url: `${baseUrl}${page.alternates[DEFAULT_LANG]}` },
      ],
    });
  }
  stream.end();
  return (await streamToPromise(stream)).toString('utf8');
}
