/**
 * Content rules that need a build of their own: each case builds a temp copy of the project, all
 * cases in parallel, once for the file.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DISCOVERY_PATHS } from '../../api/contract/paths.ts';
import { copyProject, type ProjectCopy } from './support/project-copy.ts';
import { links } from './support/html.ts';
import { splitFrontMatter } from './support/front-matter.ts';

const BASE = 'https://copy.example';
const frontmatter = (fields: Record<string, string>) =>
  `---\n${Object.entries(fields).map(([k, v]) => `${k}: ${v}`).join('\n')}\n---\n`;

const cases = {
  /** A new page pair, and nothing else changed. */
  added: {
    'content/en/changelog.md': `${frontmatter({ key: 'changelog', title: 'Changelog', description: "'What changed in {product}, release by release.'" })}\n## November\n\nThe [API guide](/developers/) now starts at {base_url}/sandbox/api/v1.\n`,
    'content/de/aenderungen.md': `${frontmatter({ key: 'changelog', title: 'Änderungen', description: "'Was sich an {product} geändert hat, Version für Version.'" })}\n## November\n\nNeu.\n`,
  },
  /** Frontmatter that breaks the schema: a required field missing, an unknown field present. */
  badFrontmatter: {
    'content/en/broken.md': `${frontmatter({ key: 'broken', title: 'Broken', titel: 'typo' })}\nBody.\n`,
  },
  /** A page without its translation. */
  unpaired: {
    'content/en/lonely.md': `${frontmatter({ key: 'lonely', title: 'Lonely', description: "'A page that nobody translated into German yet.'" })}\nBody.\n`,
  },
};

type Case = keyof typeof cases;
const copies = {} as Record<Case, ProjectCopy>;
const results = {} as Record<Case, { code: number | null; output: string }>;

beforeAll(async () => {
  await Promise.all(
    (Object.keys(cases) as Case[]).map(async (name) => {
      const copy = (copies[name] = await copyProject());
      for (const [file, body] of Object.entries(cases[name])) await copy.write(file, body);
      // An https:// origin with the sample operator details: allowed for this test (site/lib/production-guard.ts).
      results[name] = await copy.build({ BASE_URL: BASE, ALLOW_SAMPLE_DETAILS: 'true' });
    }),
  );
}, 120_000);

afterAll(async () => {
  await Promise.all(Object.values(copies).map((c) => c.remove()));
});

const built = (file: string) => readFileSync(path.join(copies.added.dist, file), 'utf8');

describe('content builds', () => {
  it('content: a new Markdown file pair becomes pages in both languages, paired by key, with no code change', () => {
    expect(results.added.code, results.added.output).toBe(0);
    const html = built('changelog/index.html');
    expect(links(html, 'canonical')[0].attrs.href).toBe(`${BASE}/changelog/`);
    expect(links(html, 'alternate').find((l) => l.attrs.hreflang === 'de')?.attrs.href).toBe(`${BASE}/de/aenderungen/`);
    expect(built('de/aenderungen/index.html')).toContain('<html lang="de"');
  });

  it('content: the new page gets a twin with front matter, its title as H1, filled placeholders and absolute links', () => {
    const { data, body } = splitFrontMatter(built('changelog.md'));
    expect(data).toMatchObject({ title: 'Changelog', canonical: `${BASE}/changelog/`, lang: 'en', alternates: { de: `${BASE}/de/aenderungen/` } });
    const twin = body;
    expect(twin.split('\n')[0]).toBe('# Changelog');
    expect(twin).toContain(`[API guide](${BASE}/developers/)`);
    expect(twin).toContain(`${BASE}/sandbox/api/v1`);
    expect(splitFrontMatter(built('de/aenderungen.md')).body.split('\n')[0]).toBe('# Änderungen');
  });

  it('content: the new page gets a sitemap entry with its alternates and an llms.txt entry with its twin', () => {
    const sitemap = built(DISCOVERY_PATHS.sitemap.slice(1));
    expect(sitemap).toContain(`<loc>${BASE}/changelog/</loc>`);
    expect(sitemap).toContain(`<loc>${BASE}/de/aenderungen/</loc>`);
    const llms = built(DISCOVERY_PATHS.llms.slice(1));
    expect(llms).toMatch(new RegExp(`^- \\[Changelog\\]\\(${BASE}/changelog\\.md\\): What changed in \\S+, release by release\\.$`, 'm'));
    expect(llms).toContain(`(${BASE}/de/aenderungen.md)`);
  });

  it('config: BASE_URL given to the build is the origin of every absolute URL it writes', () => {
    expect(built(DISCOVERY_PATHS.robots.slice(1))).toContain(`Sitemap: ${BASE}/sitemap.xml`);
    expect(built(DISCOVERY_PATHS.securityTxt.slice(1))).toContain(`Canonical: ${BASE}/.well-known/security.txt`);
    expect(built(DISCOVERY_PATHS.sitemap.slice(1)).match(/<loc>[^<]+/g)!.every((loc) => loc.startsWith(`<loc>${BASE}/`))).toBe(true);
  });

  it('content: bad frontmatter fails the build, naming the file and the fields', () => {
    const { code, output } = results.badFrontmatter;
    expect(code).not.toBe(0);
    expect(output).toContain('content/en/broken.md');
    expect(output).toMatch(/description/);
    expect(output).toMatch(/titel/);
  });

  it('content: a page without its translation fails the build, naming the file and the missing language', () => {
    const { code, output } = results.unpaired;
    expect(code).not.toBe(0);
    expect(output).toContain('content/en/lonely.md');
    expect(output).toMatch(/no de translation/);
  });
});
