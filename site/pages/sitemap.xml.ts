/** /sitemap.xml (sitemaps.org 0.9) with hreflang alternates, x-default included; HTML pages only. */
import type { APIRoute } from 'astro';
import { SitemapStream, streamToPromise } from 'sitemap';
import { DEFAULT_LANG, LANGS } from '../../api/contract/enums.ts';
import { getAllPages } from '../lib/pages.ts';
import { BASE_URL } from '../lib/site-config.ts';

export const GET: APIRoute = async () => {
  const stream = new SitemapStream({ hostname: BASE_URL, lastmodDateOnly: true, xmlns: { xhtml: true, news: false, image: false, video: false } });
  for (const page of await getAllPages()) {
    if (page.kind !== 'page') continue;
    stream.write({
      url: `${BASE_URL}${page.path}`,
      lastmod: page.updated?.toISOString().slice(0, 10),
      links: [
        ...LANGS.map((lang) => ({ lang, url: `${BASE_URL}${page.alternates[lang]}` })),
        { lang: 'x-default', url: `${BASE_URL}${page.alternates[DEFAULT_LANG]}` },
      ],
    });
  }
  stream.end();
  return new Response((await streamToPromise(stream)).toString('utf8'), { headers: { 'Content-Type': 'application/xml' } });
};
