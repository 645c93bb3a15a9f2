import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { CACHE_IMMUTABLE, CACHE_REVALIDATE, CONTENT_SECURITY_POLICY, PERMISSIONS_POLICY } from '../../api/front/headers.ts';
import { API_CATALOG_TYPE } from '../../api/front/media-types.ts';
import { raw } from './client.ts';
import { BASE, FILES } from './fixture.ts';
import { startStaticFront, type Harness } from './harness.ts';

let h: Harness;
beforeAll(async () => {
  h = await startStaticFront();
});
afterAll(() => h.close());

const get = (target: string, headers: Record<string, string> = {}, method = 'GET') => raw(h.url, target, { method, headers });
const MD = { accept: 'text/markdown' };
const BROWSER = { accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' };

describe('pages and their Markdown twins', () => {
  test('page: browser Accept -> HTML with Vary: Accept and a Link to the twin', async () => {
    const res = await get('/thanks/', BROWSER);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.text).toBe(FILES['thanks/index.html']);
    expect(res.headers.vary).toBe('Accept, Accept-Encoding');
    expect(res.headers.link).toBe(`<${BASE}/thanks.md>; rel="alternate"; type="text/markdown"`);
  });

  test('page: Accept text/markdown -> the twin at the page URL, Vary: Accept, Link canonical', async () => {
    const res = await get('/thanks/', MD);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('text/markdown; charset=utf-8');
    expect(res.text).toBe(FILES['thanks.md']);
    expect(res.headers.vary).toBe('Accept, Accept-Encoding');
    expect(res.headers.link).toBe(`<${BASE}/thanks/>; rel="canonical"`);
  });

  test('page: the two variants have different ETags', async () => {
    const [html, md] = await Promise.all([get('/thanks/'), get('/thanks/', MD)]);
    expect(html.headers.etag).toMatch(/^"[\w-]+"$/);
    expect(md.headers.etag).toMatch(/^"[\w-]+"$/);
    expect(html.headers.etag).not.toBe(md.headers.etag);
  });

  test('twin URL: /thanks.md -> Markdown with Link canonical to the page, not negotiated', async () => {
    const res = await get('/thanks.md', BROWSER);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('text/markdown; charset=utf-8');
    expect(res.text).toBe(FILES['thanks.md']);
    expect(res.headers.link).toBe(`<${BASE}/thanks/>; rel="canonical"`);
    expect(res.headers.vary).toBe('Accept-Encoding');
  });

  test('twin URL: /index.md and /de.md point to / and /de/', async () => {
    expect((await get('/index.md')).headers.link).toBe(`<${BASE}/>; rel="canonical"`);
    expect((await get('/de.md')).headers.link).toBe(`<${BASE}/de/>; rel="canonical"`);
  });

  test('twin URL: /openapi.json.md -> canonical /openapi.json', async () => {
    const res = await get('/openapi.json.md');
    expect(res.headers['content-type']).toBe('text/markdown; charset=utf-8');
    expect(res.headers.link).toBe(`<${BASE}/openapi.json>; rel="canonical"`);
  });

  test('home pages: both variants also carry Link rel="api-catalog"', async () => {
    for (const [page, twin] of [['/', '/index.md'], ['/de/', '/de.md']]) {
      const html = await get(page);
      expect(html.headers.link).toBe(`<${BASE}${twin}>; rel="alternate"; type="text/markdown", <${BASE}/.well-known/api-catalog>; rel="api-catalog"`);
      const md = await get(page, MD);
      expect(md.headers.link).toBe(`<${BASE}${page}>; rel="canonical", <${BASE}/.well-known/api-catalog>; rel="api-catalog"`);
    }
  });

  test('page without a twin: HTML whatever the Accept, no Vary: Accept, no alternate Link', async () => {
    const res = await get('/plain/', MD);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.headers.vary).toBeUndefined();
    expect(res.headers.link).toBeUndefined();
  });

  test('HEAD: same status and headers as GET, no body, for each variant', async () => {
    for (const headers of [BROWSER, MD]) {
      const [g, h2] = await Promise.all([get('/thanks/', headers), get('/thanks/', headers, 'HEAD')]);
      expect(h2.status).toBe(200);
      expect(h2.body.length).toBe(0);
      const { date: _d1, ...gh } = g.headers;
      const { date: _d2, ...hh } = h2.headers;
      expect(hh).toEqual(gh);
    }
  });
});

describe('conditional GET and compression', () => {
  test('304: If-None-Match with the current ETag -> 304, no body, same ETag, Vary and Cache-Control', async () => {
    const first = await get('/thanks/', MD);
    const again = await get('/thanks/', { ...MD, 'if-none-match': first.headers.etag! });
    expect(again.status).toBe(304);
    expect(again.body.length).toBe(0);
    expect(again.headers.etag).toBe(first.headers.etag);
    expect(again.headers.vary).toBe(first.headers.vary);
    expect(again.headers['cache-control']).toBe(CACHE_REVALIDATE);
    expect(again.headers['content-type']).toBeUndefined();
  });

  test('304: weak comparison, lists and * match; another variant\'s ETag does not', async () => {
    const html = await get('/thanks/');
    const md = await get('/thanks/', MD);
    expect((await get('/thanks/', { 'if-none-match': `"nope", W/${html.headers.etag}` })).status).toBe(304);
    expect((await get('/thanks/', { 'if-none-match': '*' })).status).toBe(304);
    expect((await get('/thanks/', { 'if-none-match': md.headers.etag! })).status).toBe(200);
    expect((await get('/llms.txt', { 'if-none-match': html.headers.etag!, 'accept-encoding': 'br' })).status).toBe(200);
  });

  test('304: HEAD with a matching ETag -> 304 too', async () => {
    const first = await get('/llms.txt');
    expect((await get('/llms.txt', { 'if-none-match': first.headers.etag! }, 'HEAD')).status).toBe(304);
  });

  test('compression: br preferred, gzip next, identity otherwise; each with its own ETag and Vary: Accept-Encoding', async () => {
    const br = await get('/llms.txt', { 'accept-encoding': 'gzip, deflate, br' });
    const gz = await get('/llms.txt', { 'accept-encoding': 'gzip' });
    const id = await get('/llms.txt');
    expect(br.headers['content-encoding']).toBe('br');
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(id.headers['content-encoding']).toBeUndefined();
    for (const res of [br, gz, id]) {
      expect(res.text).toBe(FILES['llms.txt']);
      expect(res.headers.vary).toBe('Accept-Encoding');
      expect(Number(res.headers['content-length'])).toBe(res.body.length);
    }
    expect(br.body.length).toBeLessThan(id.body.length);
    expect(new Set([br.headers.etag, gz.headers.etag, id.headers.etag]).size).toBe(3);
  });

  test('compression: negotiable page -> Vary: Accept, Accept-Encoding on the compressed variant', async () => {
    const res = await get('/thanks/', { ...MD, 'accept-encoding': 'br' });
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.headers.vary).toBe('Accept, Accept-Encoding');
    expect(res.text).toBe(FILES['thanks.md']);
  });

  test('compression: images and tiny files are sent as they are', async () => {
    for (const target of ['/favicon.ico', '/robots.txt']) {
      const res = await get(target, { 'accept-encoding': 'br, gzip' });
      expect(res.headers['content-encoding']).toBeUndefined();
      expect(res.headers.vary).toBeUndefined();
    }
  });
});

describe('content types', () => {
  const cases: [string, string][] = [
    ['/llms.txt', 'text/plain; charset=utf-8'],
    ['/robots.txt', 'text/plain; charset=utf-8'],
    ['/sitemap.xml', 'application/xml'],
    ['/openapi.json', 'application/json'],
    ['/favicon.svg', 'image/svg+xml'],
    ['/favicon.ico', 'image/x-icon'],
    ['/site.webmanifest', 'application/manifest+json'],
    ['/_astro/app.abc123.js', 'text/javascript; charset=utf-8'],
    ['/_astro/app.abc123.css', 'text/css; charset=utf-8'],
    ['/.well-known/api-catalog', API_CATALOG_TYPE],
    ['/.well-known/security.txt', 'text/plain; charset=utf-8'],
    ['/.well-known/oauth-authorization-server', 'application/json'],
    ['/.well-known/oauth-authorization-server/sandbox', 'application/json'],
    ['/.well-known/oauth-protected-resource/api/v1', 'application/json'],
  ];
  test.each(cases)('content type: %s -> %s', async (target, type) => {
    const res = await get(target);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe(type);
  });

  test('api-catalog: RFC 9727 profile and Link rel="api-catalog" on GET and HEAD', async () => {
    for (const method of ['GET', 'HEAD']) {
      const res = await get('/.well-known/api-catalog', {}, method);
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toBe('application/linkset+json; profile="https://www.rfc-editor.org/info/rfc9727"');
      expect(res.headers.link).toBe(`<${BASE}/.well-known/api-catalog>; rel="api-catalog"`);
    }
  });

  test('alias: the production AS metadata is served from its .json file, and the .json address is 404', async () => {
    const res = await get('/.well-known/oauth-authorization-server');
    expect(JSON.parse(res.text)).toEqual({ issuer: BASE });
    expect((await get('/.well-known/oauth-authorization-server.json')).status).toBe(404);
  });
});

describe('redirects', () => {
  test('redirect: /thanks -> 301 /thanks/, query kept', async () => {
    const res = await get('/thanks?utm=x&a=b');
    expect(res.status).toBe(301);
    expect(res.headers.location).toBe('/thanks/?utm=x&a=b');
  });

  test('redirect: /de -> 301 /de/, HEAD too', async () => {
    expect((await get('/de')).headers.location).toBe('/de/');
    const head = await get('/de', {}, 'HEAD');
    expect(head.status).toBe(301);
    expect(head.headers.location).toBe('/de/');
  });

  test('redirect: /thanks/index.html -> 301 /thanks/ (one URL per page)', async () => {
    const res = await get('/thanks/index.html');
    expect(res.status).toBe(301);
    expect(res.headers.location).toBe('/thanks/');
  });

  test('redirect: a path with no page under it -> 404, not a redirect', async () => {
    expect((await get('/nothing')).status).toBe(404);
  });
});

describe('404', () => {
  test('404: unknown path, browser -> status 404 with 404.html, Vary: Accept', async () => {
    const res = await get('/prices/', BROWSER);
    expect(res.status).toBe(404);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.text).toBe(FILES['404.html']);
    expect(res.headers.vary).toBe('Accept');
    expect(res.headers.etag).toBeUndefined();
  });

  test('404: Markdown reader -> 404.md with status 404 (no fallback 200)', async () => {
    const res = await get('/login', MD);
    expect(res.status).toBe(404);
    expect(res.headers['content-type']).toBe('text/markdown; charset=utf-8');
    expect(res.text).toBe(FILES['404.md']);
  });

  test('404: under /de/ -> the German 404 page and its twin', async () => {
    expect((await get('/de/preise/')).text).toBe(FILES['de/404.html']);
    expect((await get('/de/preise/', MD)).text).toBe(FILES['de/404.md']);
  });

  test('404: unknown twin address -> 404', async () => {
    expect((await get('/nope.md', MD)).status).toBe(404);
  });

  test('404: the 404 pages are not pages themselves', async () => {
    for (const target of ['/404.html', '/404.md', '/404/', '/de/404.html']) expect((await get(target)).status).toBe(404);
  });

  test('404: HEAD -> 404 without body; If-None-Match never turns a 404 into 304', async () => {
    const head = await get('/prices/', {}, 'HEAD');
    expect(head.status).toBe(404);
    expect(head.body.length).toBe(0);
    expect((await get('/prices/', { 'if-none-match': '*' })).status).toBe(404);
  });
});

describe('methods', () => {
  test.each(['POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS'])('405: %s on a page or file -> 405 with Allow: GET, HEAD', async (method) => {
    for (const target of ['/thanks/', '/llms.txt', '/thanks']) {
      const res = await raw(h.url, target, { method, body: method === 'OPTIONS' ? undefined : 'x=1', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
      expect(res.status).toBe(405);
      expect(res.headers.allow).toBe('GET, HEAD');
    }
  });

  test('405: POST to an unknown path -> 404 (there is no resource to refuse)', async () => {
    expect((await raw(h.url, '/prices/', { method: 'POST', body: 'x' })).status).toBe(404);
  });
});

describe('never anything outside dist/', () => {
  const attempts: [string, number][] = [
    ['/..%2f..%2fetc/passwd', 400],
    ['/%2e%2e/%2e%2e/etc/passwd', 400],
    ['/%2e%2e/', 400],
    ['/../../etc/passwd', 400],
    ['/thanks/../../etc/passwd', 400],
    ['/./thanks/', 400],
    ['/a\\b', 400],
    ['/%5c..%5cetc%5cpasswd', 400],
    ['/llms.txt%00.html', 400],
    ['/%00', 400],
    ['/%E0%A4%A', 400],
    ['//etc/passwd', 400],
    ['/passwd', 404],
    ['/linked/passwd', 404],
    ['/.hidden', 404],
    ['/assets/.env', 404],
    ['/%2ehidden', 404],
    ['/.git/config', 404],
  ];
  test.each(attempts)('traversal: %s -> %i', async (target, status) => {
    const res = await get(target);
    expect(res.status).toBe(status);
    expect(res.text).not.toContain('root:x');
    expect(res.text).not.toContain('secret');
  });

  test('traversal: a target neither origin-form nor absolute-form -> 400; the absolute-form is only the origin-form it names (RFC 9112 §3.2.2)', async () => {
    for (const target of ['etc/passwd', '*', 'evil.example:80']) expect((await get(target)).status, target).toBe(400);
    expect((await get('http://evil.example/etc/passwd')).status).toBe(404);
    expect((await get('http://evil.example/thanks/')).status).toBe(200);
  });

  test('percent-encoding is decoded once: /thanks%2F is not /thanks/, /%74hanks/ is', async () => {
    expect((await get('/thanks%2F')).status).toBe(400);
    expect((await get('/%74hanks/')).status).toBe(200);
  });
});

describe('headers', () => {
  test('security headers: CSP without inline script, nosniff, Referrer-Policy on pages and twins', async () => {
    for (const [target, headers] of [['/', BROWSER], ['/', MD], ['/thanks.md', {}], ['/prices/', BROWSER]] as const) {
      const res = await get(target, headers);
      expect(res.headers['content-security-policy']).toBe(CONTENT_SECURITY_POLICY);
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
    }
    expect(CONTENT_SECURITY_POLICY).toContain("frame-ancestors 'none'");
    expect(CONTENT_SECURITY_POLICY).not.toContain('unsafe-inline');
  });

  test('security headers: Permissions-Policy switches off every powerful feature on pages, twins and the 404 page', async () => {
    for (const [target, headers] of [['/', BROWSER], ['/', MD], ['/thanks.md', {}], ['/prices/', BROWSER]] as const) {
      expect((await get(target, headers)).headers['permissions-policy']).toBe(PERMISSIONS_POLICY);
    }
    for (const feature of ['camera', 'microphone', 'geolocation', 'payment', 'usb']) expect(PERMISSIONS_POLICY).toContain(`${feature}=()`);
  });

  test('security headers: nosniff on every static answer (files, redirects, errors)', async () => {
    for (const target of ['/favicon.svg', '/thanks', '/%00', '/.well-known/api-catalog']) {
      expect((await get(target)).headers['x-content-type-options']).toBe('nosniff');
    }
  });

  test('cache: /_astro/ assets immutable for a year, everything else revalidates', async () => {
    expect((await get('/_astro/app.abc123.js')).headers['cache-control']).toBe(CACHE_IMMUTABLE);
    expect(CACHE_IMMUTABLE).toBe('public, max-age=31536000, immutable');
    for (const target of ['/', '/thanks.md', '/llms.txt', '/.well-known/api-catalog']) {
      const res = await get(target);
      expect(res.headers['cache-control']).toBe(CACHE_REVALIDATE);
      expect(res.headers.etag).toBeDefined();
    }
  });
});

describe('routing and logging', () => {
  test.each(['/api', '/api/v1/status?x=1', '/api/waitlist', '/sandbox/api', '/sandbox/api/v1/oauth/token'])('proxy: %s goes to the sidecar', async (target) => {
    const res = await get(target);
    expect(res.status).toBe(299);
    expect(h.proxied).toContain(target);
  });

  test.each(['/apis', '/api.md', '/sandbox', '/sandbox/apix', '/x/api/v1'])('proxy: %s is the site, not the API', async (target) => {
    expect((await get(target)).status).not.toBe(299);
  });

  test('log: one line per request with method, path without query, status, duration', async () => {
    const before = h.logs.length;
    await get('/thanks/?email=someone@example.org&token=abc');
    const lines = h.logs.slice(before);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^GET \/thanks\/ 200 \d+\.\dms$/);
    expect(lines[0]).not.toContain('email');
  });

  test('log: an e-mail address in the path is masked', async () => {
    const before = h.logs.length;
    await get('/someone@example.org/x');
    await get('/someone%40example.org');
    const lines = h.logs.slice(before).join('\n');
    expect(lines).not.toMatch(/example\.org/);
    expect(lines).toContain('[redacted]');
  });
});
