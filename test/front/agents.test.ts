/**
 * What the front adds for agents: Markdown asked for as text/x-markdown, the OpenAPI document's
 * Markdown twin by negotiation, x-markdown-tokens, and the Content-Signal header from robots.txt.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createFrontHandler } from '../../api/front/app.ts';
import { estimateTokens } from '../../api/front/headers.ts';
import { negotiatePage } from '../../api/front/negotiate.ts';
import { listen, type Listening } from '../../api/front/server.ts';
import { loadSite } from '../../api/front/static.ts';

const BASE = 'https://waitlist.example';
const SIGNAL = 'search=yes, ai-input=yes, ai-train=no';
const TWIN = `# Home\n\n${'word '.repeat(100)}\n`;
const API_TWIN = `# API\n\n${'op '.repeat(100)}\n`;
const FILES: Record<string, string> = {
  'index.html': '<!doctype html><title>Home</title>',
  'index.md': TWIN,
  '404.html': '<!doctype html><title>Not found</title>',
  '404.md': '# Not found\n',
  'openapi.json': JSON.stringify({ openapi: '3.1.1' }),
  'openapi.json.md': API_TWIN,
  'robots.txt': `User-agent: *\nContent-Signal: ${SIGNAL}\nAllow: /\n`,
  'llms.txt': '# Site\n',
};

let root: string;
let front: Listening;
beforeAll(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'front-agents-'));
  for (const [name, body] of Object.entries(FILES)) {
    await mkdir(path.dirname(path.join(root, name)), { recursive: true });
    await writeFile(path.join(root, name), body);
  }
  const site = await loadSite(root, BASE);
  front = await listen(createFrontHandler({ site, proxy: (_req, res) => res.writeHead(500).end() }), '127.0.0.1', 0);
});
afterAll(async () => {
  await front?.close(1_000);
  await rm(root, { recursive: true, force: true });
});

const get = (p: string, accept?: string) => fetch(`${front.url}${p}`, { headers: accept ? { accept } : {} });

describe('negotiation for agents', () => {
  test.each([
    ['text/x-markdown', 'markdown'],
    ['text/x-markdown;q=0.5, text/html', 'html'],
    ['text/html;q=0.5, text/x-markdown', 'markdown'],
    ['text/x-markdown;q=0', 'html'],
  ] as const)('agents: Accept %j on a page -> %s (text/x-markdown is text/markdown, q-values honoured)', (accept, expected) => {
    expect(negotiatePage(accept)).toBe(expected);
  });

  test.each([
    ['application/json', 'json'],
    [undefined, 'json'],
    ['*/*', 'json'],
    ['text/markdown', 'markdown'],
    ['text/x-markdown', 'markdown'],
    ['application/json, text/markdown', 'json'],
    ['application/json;q=0.5, text/markdown', 'markdown'],
    ['text/html', 'json'],
  ] as const)('agents: Accept %j on /openapi.json -> %s', async (accept, expected) => {
    const response = await get('/openapi.json', accept);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe(expected === 'json' ? 'application/json' : 'text/markdown; charset=utf-8');
    expect(await response.text()).toBe(expected === 'json' ? FILES['openapi.json'] : API_TWIN);
    expect(response.headers.get('vary')).toMatch(/\bAccept\b/);
  });

  test('agents: /openapi.json links its Markdown twin; the twin links back as canonical', async () => {
    const json = await get('/openapi.json');
    expect(json.headers.get('link')).toContain(`<${BASE}/openapi.json.md>; rel="alternate"; type="text/markdown"`);
    const markdown = await get('/openapi.json', 'text/markdown');
    expect(markdown.headers.get('link')).toContain(`<${BASE}/openapi.json>; rel="canonical"`);
  });
});

describe('agent headers', () => {
  test('agents: every Markdown answer carries x-markdown-tokens = ceil(bytes / 4)', async () => {
    for (const [url, accept, body] of [
      ['/', 'text/markdown', TWIN],
      ['/index.md', undefined, TWIN],
      ['/openapi.json', 'text/markdown', API_TWIN],
      ['/nowhere/', 'text/markdown', FILES['404.md']!],
    ] as const) {
      const response = await get(url, accept);
      expect(response.headers.get('content-type'), url).toMatch(/^text\/markdown/);
      expect(response.headers.get('x-markdown-tokens'), url).toBe(String(Math.ceil(Buffer.byteLength(body) / 4)));
    }
    expect(estimateTokens(Buffer.from('abcde'))).toBe(2);
  });

  test('agents: HTML and JSON answers carry no x-markdown-tokens', async () => {
    expect((await get('/')).headers.get('x-markdown-tokens')).toBeNull();
    expect((await get('/openapi.json')).headers.get('x-markdown-tokens')).toBeNull();
  });

  test("agents: pages and twins send robots.txt's Content-Signal as a header; other files do not", async () => {
    for (const [url, accept] of [['/', undefined], ['/', 'text/markdown'], ['/index.md', undefined], ['/nowhere/', undefined]] as const) {
      expect((await get(url, accept)).headers.get('content-signal'), `${url} ${accept}`).toBe(SIGNAL);
    }
    expect((await get('/llms.txt')).headers.get('content-signal')).toBeNull();
  });

  test('agents: a site whose robots.txt has no Content-Signal sends no header', async () => {
    const bare = await mkdtemp(path.join(tmpdir(), 'front-agents-bare-'));
    try {
      await writeFile(path.join(bare, 'index.html'), '<!doctype html>');
      await writeFile(path.join(bare, 'robots.txt'), 'User-agent: *\nAllow: /\n');
      const site = await loadSite(bare, BASE);
      const page = site.routes.get('/');
      expect(page?.kind).toBe('page');
      if (page?.kind !== 'page') return;
      expect(page.html.encoded.identity.ok).not.toContain('Content-Signal');
    } finally {
      await rm(bare, { recursive: true, force: true });
    }
  });
});
