/**
 * Links, as a crawler and an agent meet them on the real stack (front + sidecar, site built for
 * this base URL). linkinator crawls the HTML pages and the sitemap; it reads no links out of
 * .txt, .xml or served .md files, so llms.txt and every Markdown twin are parsed here with remark
 * and each of their links is requested.
 */
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { check } from 'linkinator';
import remarkParse from 'remark-parse';
import { unified } from 'unified';
import { describe, expect, inject, test } from 'vitest';
import { DISCOVERY_PATHS } from '../../api/contract/index.ts';
import '../support/stack.ts';

const { baseUrl, distDir } = inject('stack');

/** Every link target of a Markdown document, resolved against the base URL. */
function markdownLinks(markdown: string): string[] {
  const found: string[] = [];
  const walk = (node: any) => {
    if ((node.type === 'link' || node.type === 'definition') && typeof node.url === 'string') found.push(node.url);
    for (const child of node.children ?? []) walk(child);
  };
  walk(unified().use(remarkParse).parse(markdown));
  return found.filter((url) => !url.startsWith('mailto:') && !url.startsWith('#')).map((url) => new URL(url, `${baseUrl}/`).href);
}

async function markdownFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  return entries.filter((e) => e.isFile() && e.name.endsWith('.md')).map((e) => path.join(e.parentPath, e.name));
}

/** Requests every URL once (sequentially, as llms.txt asks agents to) and returns those not answering 200. */
async function broken(urls: Iterable<string>): Promise<string[]> {
  const bad: string[] = [];
  for (const url of new Set(urls)) {
    // Links to the live API's token endpoint cannot be fetched with GET: the endpoint takes POST only.
    // The statistics endpoints need a token: without one, the documented 401 with a Bearer challenge.
    const res = await fetch(url, { redirect: 'manual' });
    await res.arrayBuffer();
    const expected =
      (res.status === 405 && url.endsWith('/oauth/token')) ||
      (res.status === 401 && url.endsWith('/waitlist/stats') && /^Bearer /.test(res.headers.get('www-authenticate') ?? ''));
    if (res.status !== 200 && !expected) bad.push(`${res.status} ${url}`);
  }
  return bad;
}

describe('links', () => {
  test('linkinator: every link on every HTML page and every sitemap URL answers without error or redirect', async () => {
    const result = await check({
      path: `${baseUrl}/`,
      recurse: true,
      sitemap: `${baseUrl}${DISCOVERY_PATHS.sitemap}`,
      checkFragments: true,
      redirects: 'error',
      concurrency: 4,
      // mailto: links in the imprint and privacy pages have nothing to fetch.
      linksToSkip: ['^mailto:'],
    });
    const failures = result.links.filter((link) => link.state === 'BROKEN').map((link) => `${link.status} ${link.url} (on ${link.parent})`);
    expect(failures).toEqual([]);
    expect(result.links.length).toBeGreaterThan(20);
  }, 60_000);

  test('llms.txt: every link answers 200', async () => {
    const text = await (await fetch(`${baseUrl}${DISCOVERY_PATHS.llms}`)).text();
    const links = markdownLinks(text);
    expect(links.length).toBeGreaterThan(10);
    expect(await broken(links)).toEqual([]);
  }, 60_000);

  test('Markdown twins: every link in every .md file of the site answers 200', async () => {
    const files = await markdownFiles(distDir);
    expect(files.length).toBeGreaterThan(10);
    const links: string[] = [];
    for (const file of files) links.push(...markdownLinks(await readFile(file, 'utf8')));
    expect(await broken(links)).toEqual([]);
  }, 60_000);
});
