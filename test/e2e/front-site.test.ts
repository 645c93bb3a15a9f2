import { describe, expect, inject, test } from 'vitest';
import { API_VERSION, DISCOVERY_PATHS, PAGE_PATHS, THANKS_PATHS, twinPath } from '../../api/contract/index.ts';
import { CONTENT_SECURITY_POLICY, PERMISSIONS_POLICY } from '../../api/front/headers.ts';
import { raw } from '../front/client.ts';
import '../support/stack.ts';

const { baseUrl } = inject('stack');
const get = (target: string, headers: Record<string, string> = {}, method = 'GET') => raw(baseUrl, target, { method, headers });
const MD = { accept: 'text/markdown' };
const BROWSER = { accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' };

/** Every page the sitemap lists (absolute URLs on this stack). */
async function sitemapPages(): Promise<string[]> {
  const xml = (await get(DISCOVERY_PATHS.sitemap)).text;
  return [...xml.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => new URL(m[1]).pathname);
}

describe('front on the real site', () => {
  test('e2e twins: every sitemap page negotiates: HTML for browsers, its twin for Markdown readers, Vary: Accept on both', async () => {
    const pages = await sitemapPages();
    expect(pages).toEqual(expect.arrayContaining(Object.values(PAGE_PATHS.home)));
    for (const page of pages) {
      const html = await get(page, BROWSER);
      expect(html.status, page).toBe(200);
      expect(html.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(html.headers.vary).toMatch(/\bAccept\b/);
      expect(html.headers.link).toContain(`<${baseUrl}${twinPath(page)}>; rel="alternate"; type="text/markdown"`);
      const md = await get(page, MD);
      expect(md.status, page).toBe(200);
      expect(md.headers['content-type']).toBe('text/markdown; charset=utf-8');
      expect(md.text).not.toMatch(/<html/i);
      expect(md.headers.vary).toMatch(/\bAccept\b/);
      expect(md.headers.link).toContain(`<${baseUrl}${page}>; rel="canonical"`);
      const twin = await get(twinPath(page));
      expect(twin.text, twinPath(page)).toBe(md.text);
      expect(twin.headers.link).toContain(`<${baseUrl}${page}>; rel="canonical"`);
    }
  });

  test('e2e twins: HEAD with Accept text/markdown -> 200, Markdown type, no body', async () => {
    const res = await get('/', MD, 'HEAD');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('text/markdown; charset=utf-8');
    expect(res.body.length).toBe(0);
  });

  test('e2e home: Link rel="api-catalog" on the home pages', async () => {
    for (const home of Object.values(PAGE_PATHS.home)) {
      expect((await get(home)).headers.link).toContain(`<${baseUrl}${DISCOVERY_PATHS.apiCatalog}>; rel="api-catalog"`);
    }
  });

  test('e2e redirect: /thanks -> 301 /thanks/', async () => {
    const res = await get(THANKS_PATHS.en.replace(/\/$/, ''));
    expect(res.status).toBe(301);
    expect(res.headers.location).toBe(THANKS_PATHS.en);
  });

  test('e2e 404: browsers get the 404 page, Markdown readers its twin, /de/ the German one; all with status 404', async () => {
    const html = await get('/prices/', BROWSER);
    expect(html.status).toBe(404);
    expect(html.headers['content-type']).toBe('text/html; charset=utf-8');
    const md = await get('/login', MD);
    expect(md.status).toBe(404);
    expect(md.headers['content-type']).toBe('text/markdown; charset=utf-8');
    const de = await get('/de/preise/', BROWSER);
    expect(de.status).toBe(404);
    expect(de.text).toMatch(/lang="de"/);
  });

  test('e2e 404: unknown API paths answer JSON not_found from the sidecar', async () => {
    for (const target of ['/api/v1/prices', '/sandbox/api/v1/login', '/api/keys']) {
      const res = await get(target);
      expect(res.status, target).toBe(404);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      expect(JSON.parse(res.text).error).toBe('not_found');
      expect(res.headers['x-api-version']).toBe(API_VERSION);
    }
  });

  test('e2e discovery: api-catalog type and Link on GET and HEAD; AS metadata at its alias, not at .json', async () => {
    for (const method of ['GET', 'HEAD']) {
      const res = await get(DISCOVERY_PATHS.apiCatalog, {}, method);
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toBe('application/linkset+json; profile="https://www.rfc-editor.org/info/rfc9727"');
      expect(res.headers.link).toBe(`<${baseUrl}${DISCOVERY_PATHS.apiCatalog}>; rel="api-catalog"`);
    }
    const as = await get('/.well-known/oauth-authorization-server');
    expect(as.status).toBe(200);
    expect(as.headers['content-type']).toBe('application/json');
    expect(JSON.parse(as.text).issuer).toBe(baseUrl);
    expect((await get('/.well-known/oauth-authorization-server.json')).status).toBe(404);
    const sandbox = await get('/.well-known/oauth-authorization-server/sandbox');
    expect(JSON.parse(sandbox.text).issuer).toBe(`${baseUrl}/sandbox`);
  });

  test('e2e headers: pages carry the CSP, nosniff, Referrer-Policy and Permissions-Policy; assets are immutable', async () => {
    const home = await get('/');
    expect(home.headers['content-security-policy']).toBe(CONTENT_SECURITY_POLICY);
    expect(home.headers['x-content-type-options']).toBe('nosniff');
    expect(home.headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
    expect(home.headers['permissions-policy']).toBe(PERMISSIONS_POLICY);
    const asset = home.text.match(/(?:href|src)="(\/_astro\/[^"]+)"/)?.[1];
    expect(asset).toBeDefined();
    expect((await get(asset!)).headers['cache-control']).toBe('public, max-age=31536000, immutable');
  });

  test('e2e compression: pages come as br or gzip on request, identical once decoded', async () => {
    const plain = await get('/');
    for (const coding of ['br', 'gzip']) {
      const res = await get('/', { 'accept-encoding': coding });
      expect(res.headers['content-encoding']).toBe(coding);
      expect(res.text).toBe(plain.text);
    }
  });

  test.each(['/..%2f..%2fetc/passwd', '/%2e%2e/%2e%2e/etc/passwd', '/a\\b', '/index.html%00', '/.well-known/../../etc/passwd'])(
    'e2e traversal: %s is refused',
    async (target) => {
      const res = await get(target);
      expect([400, 404]).toContain(res.status);
      expect(res.text).not.toContain('root:');
    },
  );
});
