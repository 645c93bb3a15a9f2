/** The Markdown twin of a page (docs/site.md, "Markdown twins"): its links absolute, as it is often read out of context. */
import type { RootContent } from 'mdast';
import { LANGS } from '../../api/contract/enums.ts';
import { heading, paragraph, parseMarkdown, stringifyMarkdown, walk } from '../../api/docs/markdown.ts';
import type { Page } from './pages.ts';
import { signupMarkdown } from './signup-markdown.ts';
import { BASE_URL } from './site-config.ts';

/** The twin without front matter, as a tree (llms-full.txt nests it under its own H1). */
export function twinTree(page: Page): RootContent[] {
  const children = [
    heading(1, page.title),
    paragraph(page.description),
    ...parseMarkdown(page.markdown).children,
    ...(page.signup ? parseMarkdown(signupMarkdown(page.lang)).children : []),
  ];
  for (const node of walk({ type: 'root', children })) {
    if ((node.type === 'link' || node.type === 'definition' || node.type === 'image') && /^\/(?!\/)/.test(node.url)) {
      node.url = `${BASE_URL}${node.url}`;
    }
  }
  return children;
}

/** The twin with its YAML 1.2 front matter: JSON strings are double-quoted scalars, so no title can break it. */
export function renderTwin(page: Page): string {
  const lines = [`title: ${JSON.stringify(page.title)}`, `description: ${JSON.stringify(page.description)}`];
  if (page.kind === 'page') lines.push(`canonical: ${JSON.stringify(`${BASE_URL}${page.path}`)}`);
  lines.push(`lang: ${page.lang}`);
  if (page.kind === 'page') {
    const others = LANGS.filter((lang) => lang !== page.lang);
    lines.push('alternates:', ...others.map((lang) => `  ${lang}: ${JSON.stringify(`${BASE_URL}${page.alternates[lang]}`)}`));
  }
  return `---\n${lines.join('\n')}\n---\n\n${stringifyMarkdown(twinTree(page))}`;
}
