/**
 * A small dist/ in a temp dir, shaped like the Astro build: pages with and without twins, 404
 * pages in two languages, discovery files, a fingerprinted asset, and a symlink pointing out.
 */
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';

export const BASE = 'https://waitlist.example';

/** Long enough to be worth compressing. */
const filler = (word: string) => Array.from({ length: 60 }, (_, i) => `${word} ${i}`).join(' ');

export const FILES: Record<string, string> = {
  'index.html': `<!doctype html><title>Home</title><p>${filler('home')}</p>`,
  'index.md': `# Home\n\n${filler('home')}\n`,
  'thanks/index.html': `<!doctype html><title>Thanks</title><p>${filler('thanks')}</p>`,
  'thanks.md': `# Thanks\n\n${filler('thanks')}\n`,
  'de/index.html': `<!doctype html><title>Start</title><p>${filler('start')}</p>`,
  'de.md': `# Start\n\n${filler('start')}\n`,
  'plain/index.html': '<!doctype html><title>No twin</title>',
  '404.html': '<!doctype html><title>Not found</title><p>nothing here</p>',
  '404.md': '# Not found\n\nnothing here\n',
  'de/404.html': '<!doctype html><title>Nicht gefunden</title><p>nichts hier</p>',
  'de/404.md': '# Nicht gefunden\n\nnichts hier\n',
  'llms.txt': `# Site\n\n> ${filler('llms')}\n`,
  'robots.txt': 'User-agent: *\nAllow: /\n',
  'sitemap.xml': '<?xml version="1.0" encoding="UTF-8"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"></urlset>',
  'openapi.json': JSON.stringify({ openapi: '3.1.0', info: { title: filler('api'), version: '1' } }),
  'openapi.json.md': `# API\n\n${filler('api')}\n`,
  'favicon.svg': `<svg xmlns="http://www.w3.org/2000/svg"><title>${filler('icon')}</title></svg>`,
  'favicon.ico': '\u0000\u0000\u0001\u0000',
  'site.webmanifest': '{"name":"x"}',
  '_astro/app.abc123.js': `console.log(${JSON.stringify(filler('js'))});`,
  '_astro/app.abc123.css': `body{margin:0}/* ${filler('css')} */`,
  '.well-known/api-catalog': JSON.stringify({ linkset: [{ anchor: `${BASE}/api/v1`, 'service-desc': [{ href: `${BASE}/openapi.json` }] }] }),
  '.well-known/security.txt': 'Contact: mailto:security@example.org\nExpires: 2030-01-01T00:00:00Z\n',
  '.well-known/oauth-authorization-server.json': JSON.stringify({ issuer: BASE }),
  '.well-known/oauth-authorization-server/sandbox': JSON.stringify({ issuer: `${BASE}/sandbox` }),
  '.well-known/oauth-protected-resource/api/v1': JSON.stringify({ resource: `${BASE}/api/v1` }),
  '.hidden': 'secret',
  'assets/.env': 'SECRET=1',
};

export interface Fixture {
  dist: string;
  /** A file outside dist/ that symlinks inside dist/ point to. */
  outside: string;
  cleanup(): Promise<void>;
}

export async function createFixture(): Promise<Fixture> {
  const root = await mkdtemp(path.join(tmpdir(), 'front-fixture-'));
  const dist = path.join(root, 'dist');
  for (const [name, content] of Object.entries(FILES)) {
    const file = path.join(dist, name);
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, content);
  }
  const outsideDir = path.join(root, 'outside');
  await mkdir(outsideDir);
  const outside = path.join(outsideDir, 'passwd');
  await writeFile(outside, 'root:x:0:0\n');
  await symlink(outside, path.join(dist, 'passwd'));
  await symlink(outsideDir, path.join(dist, 'linked'));
  return { dist, outside, cleanup: () => rm(root, { recursive: true, force: true }) };
}
