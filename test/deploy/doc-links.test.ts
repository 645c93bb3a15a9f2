/**
 * README.md and docs/**: every relative link resolves to a file or folder inside the repository,
 * so a fresh clone has everything the documentation points to; the only links leaving the
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

test('links: README links the deploy guide, and the guide links each of its artefacts', async () => {
  expect(linkTargets(await readFile(path.join(ROOT, 'README.md'), 'utf8'))).toContain('docs/deploy.md');
  const guide = linkTargets(await readFile(path.join(ROOT, 'docs', 'deploy.md'), 'utf8'));
  const artefacts = (await readdir(path.join(ROOT, 'docs', 'deploy'), { recursive: true, withFileTypes: true })).filter((e) => e.isFile());
  for (const entry of artefacts) {
    const relative = path.relative(path.join(ROOT, 'docs'), path.join(entry.parentPath, entry.name));
    expect(guide, `docs/deploy.md links ${relative}`).toContain(relative);
  }
});
