import { beforeAll, describe, expect, it } from 'vitest';
import { BUILDING, LANGS, ROLES } from '../../api/contract/enums.ts';
import { ERROR_STATUS, type ErrorCode } from '../../api/contract/errors.ts';
import { EMAIL_MAX_LENGTH, SANDBOX_CLIENT_ID, SANDBOX_CLIENT_SECRET } from '../../api/contract/limits.ts';
import { PAGE_PATHS, environmentUrls, twinPath } from '../../api/contract/paths.ts';
import { parseMarkdown, walk } from '../../api/docs/markdown.ts';
import { BASE_URL, fileFor, files, htmlPages, read, requireBuild, resolves } from './support/dist.ts';
import { splitFrontMatter } from './support/front-matter.ts';
import { forms, tags, text } from './support/html.ts';

beforeAll(() => requireBuild());

const production = environmentUrls(BASE_URL, 'production');
const sandbox = environmentUrls(BASE_URL, 'sandbox');
const pages = htmlPages().map((p) => ({ ...p, twin: twinPath(p.route) }));
const twinOf = (path: string) => read(twinPath(path).slice(1));

/**
 * Markdown trees by text, each parsed once for the whole file: several rules walk the same twin,
 * and parsing is most of their time (the API reference's twins are large). Walking reads a tree only.
 */
const trees = new Map<string, ReturnType<typeof parseMarkdown>>();
function parse(markdown: string): ReturnType<typeof parseMarkdown> {
  if (!trees.has(markdown)) trees.set(markdown, parseMarkdown(markdown));
  return trees.get(markdown)!;
}

/** URLs of this site inside code and inline code (curl examples). */
function urlsInCode(markdown: string): string[] {
  const urls: string[] = [];
  for (const node of walk(parse(markdown))) {
    if (node.type === 'code' || node.type === 'inlineCode') {
      urls.push(...(node.value.match(new RegExp(`${BASE_URL.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}/[^\\s'"\`)]*`, 'g')) ?? []));
    }
  }
  return urls;
}

describe('Markdown twins', () => {
  it('twins: every built HTML page has its twin at twinPath, and every twin belongs to a page', () => {
    expect(pages.length).toBeGreaterThanOrEqual(12);
    for (const page of pages) expect(fileFor(page.twin), page.file).toBeDefined();
    // Not twins: the OpenAPI document's Markdown form and the Agent Skill under /.well-known/.
    const twins = files().filter((f) => f.endsWith('.md') && f !== 'openapi.json.md' && !f.startsWith('.well-known/'));
    expect(twins.map((t) => `/${t}`).sort()).toEqual(pages.map((p) => p.twin).sort());
  });

  it('twins: after the front matter, the first line is the H1, it equals the page title, and it is the only H1', () => {
    for (const page of pages) {
      const { body: markdown } = splitFrontMatter(read(page.twin.slice(1)));
      const h1s = [...walk(parse(markdown))].filter((n) => n.type === 'heading' && n.depth === 1);
      expect(h1s, page.twin).toHaveLength(1);
      expect(markdown.split('\n')[0], page.twin).toBe(`# ${text(read(page.file), 'h1')}`);
    }
  });

  it('twins: YAML front matter first: title, description, language, and for listed pages the canonical URL and the other languages\' URLs', () => {
    for (const page of pages) {
      const html = read(page.file);
      const { data } = splitFrontMatter(read(page.twin.slice(1)));
      expect(data.title, page.twin).toBe(text(html, 'h1'));
      expect(data.description, page.twin).toBe(tags(html, 'meta').find((m) => m.attrs.name === 'description')?.attrs.content);
      expect(data.lang, page.twin).toBe(tags(html, 'html')[0]!.attrs.lang);
      const canonical = tags(html, 'link').find((l) => l.attrs.rel === 'canonical')?.attrs.href;
      expect(data.canonical, page.twin).toBe(canonical);
      if (!canonical) {
        expect(data.alternates, page.twin).toBeUndefined();
        continue;
      }
      const hreflang = Object.fromEntries(
        tags(html, 'link').filter((l) => l.attrs.rel === 'alternate' && l.attrs.hreflang && l.attrs.hreflang !== 'x-default' && l.attrs.hreflang !== data.lang).map((l) => [l.attrs.hreflang, l.attrs.href]),
      );
      expect(data.alternates, page.twin).toEqual(hreflang);
    }
  });

  it('twins: clean Markdown, with no HTML and no unfilled {placeholder}', () => {
    for (const page of pages) {
      const markdown = read(page.twin.slice(1));
      expect([...walk(parse(markdown))].filter((n) => n.type === 'html'), page.twin).toEqual([]);
      expect(markdown, page.twin).not.toMatch(/<\/?[a-z][a-z0-9]*[\s>]/i);
      expect(markdown, page.twin).not.toMatch(/(?<!\$)\{[a-z_]+\}/);
      // The forms carry {seconds}, a template the script fills at run time.
      const html = read(page.file).replace(/<form\b[\s\S]*?<\/form>/g, '');
      expect(html, page.file).not.toMatch(/(?<!\$)\{[a-z_]+\}|%7B[a-z_]+%7D/);
    }
  });

  it('twins: every link is absolute, and every URL of this site (links and code) resolves', () => {
    for (const page of pages) {
      const markdown = read(page.twin.slice(1));
      for (const node of walk(parse(markdown))) {
        if (node.type !== 'link' && node.type !== 'definition') continue;
        expect(node.url, page.twin).toMatch(/^(https?:\/\/|mailto:)/);
        if (node.url.startsWith(BASE_URL)) expect(resolves(node.url), `${page.twin}: ${node.url}`).toBe(true);
      }
      for (const url of urlsInCode(markdown)) expect(resolves(url), `${page.twin}: ${url}`).toBe(true);
    }
  });

  it('twins: a page with the sign-up form carries the API sign-up section instead, and only such a page', () => {
    for (const page of pages) {
      const markdown = read(page.twin.slice(1));
      const hasForm = forms(read(page.file)).length > 0;
      const postsToWaitlist = [...walk(parse(markdown))].some(
        (n) => n.type === 'code' && n.value.includes(`-X POST ${production.waitlist}`) && n.value.includes('"consent":true'),
      );
      expect(postsToWaitlist, page.twin).toBe(hasForm);
    }
    for (const lang of LANGS) {
      const markdown = twinOf(PAGE_PATHS.home[lang]);
      for (const value of [...ROLES, ...BUILDING, ...LANGS]) expect(markdown).toContain(`\`${value}\``);
      expect(markdown).toContain(`POST ${production.waitlist}`);
      expect(markdown).toContain(`POST ${sandbox.waitlist}`);
      expect(markdown).toContain(String(EMAIL_MAX_LENGTH));
      expect(markdown).toContain(`${BASE_URL}${PAGE_PATHS.privacy[lang]}`);
    }
  });

  it('twins: every "status code" pair the pages cite matches the contract', () => {
    let cited = 0;
    for (const page of pages) {
      for (const [, status, code] of read(page.twin.slice(1)).matchAll(/`(\d{3}) ([a-z_]+)`/g)) {
        expect(ERROR_STATUS[code as ErrorCode], `${page.twin}: ${status} ${code}`).toBe(Number(status));
        cited++;
      }
    }
    expect(cited).toBeGreaterThan(10);
  });

  it('twins: the API guide starts in the sandbox with its public client, then shows production and the discovery documents', () => {
    for (const lang of LANGS) {
      const markdown = twinOf(PAGE_PATHS.guide[lang]);
      const code = urlsInCode(markdown);
      for (const url of [sandbox.status, sandbox.token, sandbox.stats, sandbox.waitlist, production.token, production.stats]) {
        expect(code, url).toContain(url);
      }
      expect(markdown).toContain(`-u ${SANDBOX_CLIENT_ID}:${SANDBOX_CLIENT_SECRET}`);
      expect(markdown.indexOf(sandbox.token)).toBeLessThan(markdown.indexOf(production.token));
      const links = [...walk(parse(markdown))].flatMap((n) => (n.type === 'link' ? [n.url] : []));
      for (const url of [production.openapi, production.openapiMarkdown, production.apiCatalog, production.authorizationServerMetadata, production.protectedResourceMetadata, `${BASE_URL}${PAGE_PATHS.reference[lang]}`]) {
        expect(links, url).toContain(url);
      }
    }
  });
});
