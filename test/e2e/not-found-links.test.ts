/**
 * The 404 pages are served for unknown URLs only, so no crawler ever reaches them from a link:
 * this test asks for an unknown URL in each language, as HTML and as Markdown, and requests every
 * link, stylesheet, script and icon the answer names. Each must answer 200.
 */
import { describe, expect, inject, test } from 'vitest';
import remarkParse from 'remark-parse';
import { unified } from 'unified';
import '../support/stack.ts';

const { baseUrl } = inject('stack');

const UNKNOWN = { en: '/no-such-page/', de: '/de/keine-solche-seite/' } as const;

function htmlTargets(html: string, base: string): string[] {
  return [...html.matchAll(/\s(?:href|src)="([^"]+)"/g)].map((m) => m[1]!).filter((u) => !u.startsWith('#') && !u.startsWith('mailto:')).map((u) => new URL(u, base).href);
}

function markdownTargets(markdown: string, base: string): string[] {
  const found: string[] = [];
  const walk = (node: { type: string; url?: string; children?: unknown[] }) => {
    if ((node.type === 'link' || node.type === 'definition') && node.url) found.push(node.url);
    for (const child of node.children ?? []) walk(child as typeof node);
  };
  walk(unified().use(remarkParse).parse(markdown) as never);
  return found.filter((u) => !u.startsWith('mailto:')).map((u) => new URL(u, base).href);
}

async function notAnswering200(urls: string[]): Promise<string[]> {
  const bad: string[] = [];
  for (const url of new Set(urls)) {
    const response = await fetch(url);
    await response.arrayBuffer();
    if (response.status !== 200) bad.push(`${url} -> ${response.status}`);
  }
  return bad;
}

describe('404 pages', () => {
  test.each(Object.entries(UNKNOWN))('404 (%s, HTML): every link, stylesheet, script and icon on the page resolves', async (_lang, path) => {
    const response = await fetch(`${baseUrl}${path}`);
    expect(response.status).toBe(404);
    const targets = htmlTargets(await response.text(), response.url);
    expect(targets.length).toBeGreaterThan(5);
    expect(targets.some((u) => u.endsWith('.md'))).toBe(false);
    expect(await notAnswering200(targets)).toEqual([]);
  });

  test.each(Object.entries(UNKNOWN))('404 (%s, Markdown): the twin answer is Markdown and every link in it resolves', async (_lang, path) => {
    const response = await fetch(`${baseUrl}${path}`, { headers: { accept: 'text/markdown' } });
    expect(response.status).toBe(404);
    expect(response.headers.get('content-type')).toMatch(/^text\/markdown/);
    expect(await notAnswering200(markdownTargets(await response.text(), response.url))).toEqual([]);
  });
});
