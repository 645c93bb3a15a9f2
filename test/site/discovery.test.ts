import { Readable } from 'node:stream';
import { parseSitemap } from 'sitemap';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../api/config.ts';
import { DEFAULT_LANG, LANGS } from '../../api/contract/enums.ts';
import { SANDBOX_CLIENT_ID, SANDBOX_CLIENT_SECRET } from '../../api/contract/limits.ts';
import { DISCOVERY_PATHS, PAGE_PATHS, environmentUrls, twinPath } from '../../api/contract/paths.ts';
import { BRAND } from '../../api/contract/brand.ts';
import { buildSecurityTxt, SECURITY_TXT_LIFETIME_DAYS } from '../../site/lib/security-txt.ts';
import { BASE_URL, fileFor, htmlFileOf, htmlPages, read, requireBuild, resolves } from './support/dist.ts';
import { links, tags } from './support/html.ts';
import { parseLlmsTxt } from './support/llms.ts';
import { allowed } from './support/robots.ts';

beforeAll(() => requireBuild());

const DAY = 86_400_000;
const production = environmentUrls(BASE_URL, 'production');
const sandbox = environmentUrls(BASE_URL, 'sandbox');
const listedPages = htmlPages().filter((p) => !p.file.endsWith('404.html'));

async function sitemap() {
  return parseSitemap(Readable.from([read(DISCOVERY_PATHS.sitemap.slice(1))]));
}

describe('sitemap.xml', () => {
  it('sitemap.xml: dist/sitemap.xml is a urlset in the sitemaps.org 0.9 namespace', () => {
    expect(read('sitemap.xml')).toMatch(/^<\?xml version="1\.0" encoding="UTF-8"\?>\s*<urlset xmlns="http:\/\/www\.sitemaps\.org\/schemas\/sitemap\/0\.9"/);
  });

  it('sitemap.xml: every loc is an absolute URL on the base URL with a built HTML page', async () => {
    for (const { url } of await sitemap()) {
      expect(url.startsWith(`${BASE_URL}/`), url).toBe(true);
      const file = fileFor(new URL(url).pathname);
      expect(file, url).toMatch(/index\.html$/);
    }
  });

  it('sitemap.xml: lists every HTML page but the 404 pages, once, and no twins or API URLs', async () => {
    const locs = (await sitemap()).map((item) => item.url);
    expect([...locs].sort()).toEqual(listedPages.map((p) => `${BASE_URL}${p.route}`).sort());
    for (const loc of locs) expect(loc, loc).not.toMatch(/\.md$|\/api\/|\/404/);
  });

  it("sitemap.xml: each entry's hreflang alternates (en, de, x-default) equal those in the page's HTML", async () => {
    for (const item of await sitemap()) {
      const html = read(htmlFileOf(new URL(item.url).pathname));
      const inHtml = Object.fromEntries(links(html, 'alternate').filter((l) => l.attrs.hreflang).map((l) => [l.attrs.hreflang, l.attrs.href]));
      const inSitemap = Object.fromEntries(item.links!.map((l) => [l.lang, l.url]));
      expect(inSitemap, item.url).toEqual(inHtml);
      expect(Object.keys(inSitemap).sort()).toEqual([...LANGS, 'x-default'].sort());
      expect(inSitemap['x-default']).toBe(inSitemap[DEFAULT_LANG]);
      expect(Object.values(inSitemap)).toContain(item.url);
    }
  });

  it('sitemap.xml: lastmod, where given, is a W3C date', async () => {
    for (const item of await sitemap()) if (item.lastmod) expect(item.lastmod).toMatch(/^\d{4}-\d{2}-\d{2}/);
  });
});

describe('llms.txt', () => {
  const text = () => read(DISCOVERY_PATHS.llms.slice(1));

  it('llms.txt: H1 with the product name, a blockquote summary, free text without headings, then H2 sections of link lines only', () => {
    const llms = parseLlmsTxt(text());
    expect(llms.title).toBe(BRAND.product);
    expect(llms.summary.length).toBeGreaterThan(40);
    expect(llms.sections.map((s) => s.name)).toEqual(['English pages', 'German pages', 'API', 'Full text']);
    expect(text()).not.toMatch(/<[a-z]/i);
    expect(text().length).toBeLessThan(50_000);
  });

  it('llms.txt: every link is absolute and resolves to a built file or a contract URL', () => {
    for (const section of parseLlmsTxt(text()).sections) {
      for (const link of section.links) {
        expect(link.url, link.url).toMatch(/^https?:\/\//);
        expect(resolves(link.url), link.url).toBe(true);
        expect(link.note, link.url).toBeTruthy();
      }
    }
  });

  it("llms.txt: every page's twin is listed once, in its language's section; 404 twins are not", () => {
    const [en, de] = parseLlmsTxt(text()).sections;
    const listed = { en: en.links.map((l) => l.url), de: de.links.map((l) => l.url) };
    const expected = { en: [] as string[], de: [] as string[] };
    for (const page of listedPages) {
      const lang = page.route === '/de/' || page.route.startsWith('/de/') ? 'de' : 'en';
      expected[lang].push(`${BASE_URL}${twinPath(page.route)}`);
    }
    expect([...listed.en].sort()).toEqual(expected.en.sort());
    expect([...listed.de].sort()).toEqual(expected.de.sort());
    for (const lang of LANGS) expect(listed[lang]).toContain(`${BASE_URL}${twinPath(PAGE_PATHS.home[lang])}`);
  });

  it('llms.txt: the API section links the OpenAPI document and its twin, the API catalog, the sandbox index, the token endpoints and the OAuth metadata', () => {
    const api = parseLlmsTxt(text()).sections.find((s) => s.name === 'API')!.links.map((l) => l.url);
    for (const url of [
      production.openapi,
      production.openapiMarkdown,
      production.apiCatalog,
      sandbox.index,
      production.token,
      sandbox.token,
      production.authorizationServerMetadata,
      production.protectedResourceMetadata,
    ]) {
      expect(api, url).toContain(url);
    }
  });

  it('llms.txt: tells agents to crawl sequentially with one client, honour Retry-After after 429, and start in the sandbox with client id and secret sandbox', () => {
    const { details } = parseLlmsTxt(text());
    expect(details).toMatch(/sequentially with one client/);
    expect(details).toMatch(/429[\s\S]*Retry-After/);
    expect(details).toContain(sandbox.index);
    expect(details).toContain(`client id \`${SANDBOX_CLIENT_ID}\` and client secret \`${SANDBOX_CLIENT_SECRET}\``);
    expect(details).toMatch(/\.md|text\/markdown/);
  });
});

describe('robots.txt', () => {
  const robots = () => read(DISCOVERY_PATHS.robots.slice(1));

  it('robots.txt: one absolute Sitemap line pointing at /sitemap.xml on the base URL', () => {
    const lines = robots().split('\n').filter((l) => /^sitemap:/i.test(l));
    expect(lines).toEqual([`Sitemap: ${BASE_URL}${DISCOVERY_PATHS.sitemap}`]);
  });

  it('robots.txt: nothing blocks /.well-known/, /llms.txt, /openapi.json, the twins or the pages', () => {
    const paths = ['/.well-known/', DISCOVERY_PATHS.apiCatalog, DISCOVERY_PATHS.securityTxt, DISCOVERY_PATHS.llms, DISCOVERY_PATHS.openapi, DISCOVERY_PATHS.openapiMarkdown, DISCOVERY_PATHS.sitemap];
    for (const page of htmlPages()) paths.push(page.route, twinPath(page.route));
    for (const agent of ['*', 'GPTBot', 'Googlebot']) {
      for (const path of paths) expect(allowed(robots(), agent, path), `${agent} ${path}`).toBe(true);
    }
  });
});

describe('security.txt', () => {
  const securityTxt = () => read(DISCOVERY_PATHS.securityTxt.slice(1));
  const fields = (body: string) =>
    body
      .split('\n')
      .filter((l) => l && !l.startsWith('#'))
      .map((l) => /^([A-Za-z-]+): (.+)$/.exec(l)!)
      .map(([, name, value]) => ({ name: name.toLowerCase(), value }));

  it('security.txt: Contact from SECURITY_CONTACT, Preferred-Languages en, de and the canonical URL, nothing else malformed', () => {
    const list = fields(securityTxt());
    const contact = loadConfig({ ...process.env, BASE_URL: undefined }).SECURITY_CONTACT;
    expect(list.filter((f) => f.name === 'contact').map((f) => f.value)).toEqual([contact]);
    expect(list.filter((f) => f.name === 'preferred-languages').map((f) => f.value)).toEqual([LANGS.join(', ')]);
    expect(list.filter((f) => f.name === 'canonical').map((f) => f.value)).toEqual([`${BASE_URL}${DISCOVERY_PATHS.securityTxt}`]);
    expect(securityTxt()).not.toMatch(/<[a-z]/i);
  });

  it('security.txt: exactly one Expires, an RFC 3339 UTC time in the future and less than a year ahead', () => {
    const expires = fields(securityTxt()).filter((f) => f.name === 'expires');
    expect(expires).toHaveLength(1);
    expect(expires[0].value).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
    const at = Date.parse(expires[0].value);
    expect(at).toBeGreaterThan(Date.now());
    expect(at).toBeLessThan(Date.now() + 365 * DAY);
  });

  it('security.txt: Expires is the build time plus the documented lifetime (injected clock)', () => {
    const built = new Date('2026-01-31T10:20:30.456Z');
    const body = buildSecurityTxt('mailto:security@example.org', 'https://example.org', built);
    expect(body).toContain(`Expires: ${new Date(built.getTime() + SECURITY_TXT_LIFETIME_DAYS * DAY).toISOString().replace(/\.\d{3}Z$/, 'Z')}`);
    expect(SECURITY_TXT_LIFETIME_DAYS).toBeLessThan(365);
    expect(body.endsWith('\n')).toBe(true);
  });
});

describe('pages and discovery agree', () => {
  it('discovery: the home page HTML links the twin llms.txt lists for it', () => {
    const twin = links(read('index.html'), 'alternate').find((l) => l.attrs.type === 'text/markdown')!.attrs.href;
    expect(read(DISCOVERY_PATHS.llms.slice(1))).toContain(`(${BASE_URL}${twin})`);
    expect(tags(read('index.html'), 'a').some((a) => a.attrs.href === DISCOVERY_PATHS.llms)).toBe(true);
  });
});
