/**
 * What the build publishes for agents beyond the pages: the statistics endpoints in llms.txt,
 * llms-full.txt per language within its bound, and the Content Signals in robots.txt.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../api/config.ts';
import { LANGS } from '../../api/contract/enums.ts';
import { DISCOVERY_PATHS, environmentUrls } from '../../api/contract/paths.ts';
import { LLMS_FULL_MAX_BYTES, llmsFullPath } from '../../site/lib/llms-full-path.ts';
import { buildRobotsTxt } from '../../site/lib/robots.ts';
import { parseMarkdown, walk } from '../../api/docs/markdown.ts';
import { BASE_URL, htmlPages, read, requireBuild, resolves } from './support/dist.ts';
import { splitFrontMatter } from './support/front-matter.ts';
import { tags } from './support/html.ts';
import { parseLlmsTxt } from './support/llms.ts';

beforeAll(() => requireBuild());

const llms = () => parseLlmsTxt(read(DISCOVERY_PATHS.llms.slice(1)));

describe('llms.txt for agents', () => {
  it('llms.txt: lists the statistics endpoint of production and of the sandbox, with absolute URLs', () => {
    const urls = llms().sections.flatMap((s) => s.links.map((l) => l.url));
    for (const env of ['production', 'sandbox'] as const) expect(urls).toContain(environmentUrls(BASE_URL, env).stats);
  });

  it('llms.txt: links llms-full.txt of every language, and each resolves', () => {
    const full = llms().sections.find((s) => s.name === 'Full text')!.links.map((l) => l.url);
    expect(full).toEqual(LANGS.map((lang) => `${BASE_URL}${llmsFullPath(lang)}`));
    for (const url of full) expect(resolves(url), url).toBe(true);
  });
});

describe('llms-full.txt', () => {
  it.each(LANGS)('llms-full.txt (%s): one H1 first, then every listed page of the language (API reference included) under its own H2 with its URL', (lang) => {
    const text = read(llmsFullPath(lang).slice(1));
    const tree = parseMarkdown(text);
    const headings = [...walk(tree)].filter((n) => n.type === 'heading');
    expect(text.startsWith('# ')).toBe(true);
    expect(headings.filter((h) => h.type === 'heading' && h.depth === 1)).toHaveLength(1);
    const listed = htmlPages().filter((p) => !p.file.endsWith('404.html') && tags(read(p.file), 'html')[0]!.attrs.lang === lang);
    expect(listed.length).toBeGreaterThanOrEqual(6);
    for (const page of listed) {
      const twin = splitFrontMatter(read(page.route === '/' ? 'index.md' : `${page.route.slice(1, -1)}.md`));
      expect(text, page.route).toContain(`## ${twin.data.title}\n\n`);
      expect(text, page.route).toContain(`<${twin.data.canonical}>`);
    }
    // No front matter inside: every page section starts with its H2.
    expect(text).not.toMatch(/^title: /m);
  });

  it.each(LANGS)(`llms-full.txt (%s): within the documented bound of ${LLMS_FULL_MAX_BYTES / 1024} KB and at least 500 characters (Mintlify's check)`, (lang) => {
    const bytes = Buffer.byteLength(read(llmsFullPath(lang).slice(1)));
    expect(bytes).toBeLessThanOrEqual(LLMS_FULL_MAX_BYTES);
    expect(bytes).toBeGreaterThan(500);
  });
});

describe('Content Signals', () => {
  it('robots.txt: carries the configured Content Signals in the * group, the default when unset', () => {
    const robots = read(DISCOVERY_PATHS.robots.slice(1));
    const group = robots.slice(robots.indexOf('User-agent: *'));
    expect(group).toMatch(/^Content-Signal: search=yes, ai-input=yes, ai-train=no$/m);
    expect(loadConfig({}).CONTENT_SIGNALS).toBe('search=yes, ai-input=yes, ai-train=no');
  });

  it('robots.txt: CONTENT_SIGNALS is written as given (normalised), and empty means the built-in default', () => {
    const config = loadConfig({ CONTENT_SIGNALS: 'ai-train=yes,search=no' });
    expect(buildRobotsTxt('https://x.example', config.CONTENT_SIGNALS, [])).toContain('\nContent-Signal: ai-train=yes, search=no\n');
    expect(loadConfig({ CONTENT_SIGNALS: '' }).CONTENT_SIGNALS).toBe('search=yes, ai-input=yes, ai-train=no');
  });

  it.each(['ai-train=maybe', 'search=yes, search=no', 'training=no'])('config: CONTENT_SIGNALS=%j is refused, naming the variable and the form', (value) => {
    expect(() => loadConfig({ CONTENT_SIGNALS: value })).toThrow(/CONTENT_SIGNALS=.*search=, ai-input=, ai-train=/);
  });
});
