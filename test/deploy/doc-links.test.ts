/**
 * README.md and docs/**: every relative link resolves to a file or folder inside the repository,
 * so a fresh clone has everything the documentation points to, and a link to a section names a
 * heading the page has (sections move between pages); the only links leaving the
 * repository are plain public web addresses (RFCs, project sites), never paths or file: URLs.
 */
import { existsSync } from 'node:fs';
import { readFile, readdir } from 'node:fs/promises';
import path from 'node:path';
import { expect, test } from 'vitest';
import { ROOT } from '../support/stack.ts';

async function documents(): Promise<string[]> {
  const docs = (await readdir(path.join(ROOT, 'docs'), { recursive: true })).filter((f) => f.endsWith('.md')).map((f) => path.join('docs', f));
  return ['README.md', ...docs];
}

/** Link targets outside code: inline links and images, reference definitions, HTML src/href. */
export function linkTargets(markdown: string): string[] {
  const prose = markdown
    .replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, '')
    .replace(/`[^`\n]*`/g, '');
  const targets: string[] = [];
  for (const m of prose.matchAll(/!?\[(?:[^\[\]]|\[[^\]]*\])*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) targets.push(m[1]);
  for (const m of prose.matchAll(/^\s*\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)/gm)) targets.push(m[1]);
  for (const m of prose.matchAll(/\s(?:src|href)="([^"]+)"/g)) targets.push(m[1]);
  return targets;
}

/** What is wrong with one link of `file`, or undefined. */
function problem(file: string, target: string): string | undefined {
  if (/^(https?:|mailto:)/i.test(target)) {
    if (/^https?:\/\/(localhost|127\.|\[::1\])/i.test(target)) return 'points to a local server (put it in code, not a link)';
    return undefined;
  }
  if (/^[a-z][a-z0-9+.-]*:/i.test(target)) return 'uses a scheme other than http(s) or mailto';
  if (target.startsWith('#')) return undefined;
  const relative = decodeURIComponent(target.split('#')[0].split('?')[0]);
  if (relative.startsWith('/')) return 'is an absolute path (only relative links work in a clone)';
  const resolved = path.resolve(ROOT, path.dirname(file), relative);
  if (path.relative(ROOT, resolved).startsWith('..')) return 'leaves the repository';
  if (!existsSync(resolved)) return 'points to nothing';
  return undefined;
}

test('links: the checker finds links in prose and ignores code', () => {
  const text = 'See [a](docs/a.md), ![s](x.png "t") and [r].\n\n[r]: ../out.md\n\n```sh\n[no](nope.md)\n```\n`[no](inline.md)` <img src="i.png">';
  expect(linkTargets(text)).toEqual(['docs/a.md', 'x.png', '../out.md', 'i.png']);
});

test('links: README and docs link only to files inside the repository (or public web addresses)', async () => {
  const bad: string[] = [];
  for (const file of await documents()) {
    for (const target of linkTargets(await readFile(path.join(ROOT, file), 'utf8'))) {
      const why = problem(file, target);
      if (why) bad.push(`${file}: ${target} ${why}`);
    }
  }
  expect(bad).toEqual([]);
});

/** The anchors GitHub gives the headings of `markdown` (outside code blocks), repeats numbered `-1`, `-2`…. */
export function headingAnchors(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  const prose = markdown.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, '');
  for (const m of prose.matchAll(/^#{1,6}[ \t]+(.+?)[ \t#]*$/gm)) {
    const slug = m[1]!.toLowerCase().replace(/[^\p{L}\p{N}\p{M} _-]/gu, '').replace(/ /g, '-');
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    anchors.add(count === 0 ? slug : `${slug}-${count}`);
  }
  return anchors;
}

test('links: a link to a section of a page names a heading that page has', async () => {
  expect([...headingAnchors('# A `b` c (d)\n\n```sh\n# not a heading\n```\n## Move to PostgreSQL\n## Move to PostgreSQL')]).toEqual(['a-b-c-d', 'move-to-postgresql', 'move-to-postgresql-1']);
  const bad: string[] = [];
  for (const file of await documents()) {
    for (const target of linkTargets(await readFile(path.join(ROOT, file), 'utf8'))) {
      const hash = target.indexOf('#');
      if (hash < 0 || /^[a-z][a-z0-9+.-]*:/i.test(target)) continue;
      const page = hash === 0 ? file : path.join(path.dirname(file), decodeURIComponent(target.slice(0, hash)));
      if (!page.endsWith('.md') || !existsSync(path.join(ROOT, page))) continue;
      const anchor = decodeURIComponent(target.slice(hash + 1));
      if (!headingAnchors(await readFile(path.join(ROOT, page), 'utf8')).has(anchor)) bad.push(`${file}: ${target} names no heading of ${page}`);
    }
  }
  expect(bad).toEqual([]);
});

test('links: README links the deploy guide, and the guide links each of its artefacts', async () => {
  expect(linkTargets(await readFile(path.join(ROOT, 'README.md'), 'utf8'))).toContain('docs/deploy.md');
  const guide = linkTargets(await readFile(path.join(ROOT, 'docs', 'deploy.md'), 'utf8'));
  const artefacts = (await readdir(path.join(ROOT, 'docs', 'deploy'), { recursive: true, withFileTypes: true })).filter((e) => e.isFile());
  for (const entry of artefacts) {
    const relative = path.relative(path.join(ROOT, 'docs'), path.join(entry.parentPath, entry.name));
    expect(guide, `docs/deploy.md links ${relative}`).toContain(relative);
  }
});
