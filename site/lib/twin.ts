/**
 * The Markdown twin of a page: the title as H1, the description, the body with every root-relative
 * link made absolute (a twin is often read out of context), and on pages with the sign-up form,
 * the API sign-up section in its place.
 */
import type { Nodes, Root } from 'mdast';
import { parseMarkdown, stringifyMarkdown, walk } from './markdown.ts';
import type { Page } from './pages.ts';
import { signupMarkdown } from './signup-markdown.ts';
import { BASE_URL } from './site-config.ts';

function absolutize(node: Nodes): void {
  if ((node.type === 'link' || node.type === 'definition' || node.type === 'image') && /^\/(?!\/)/.test(node.url)) {
    node.url = `${BASE_URL}${node.url}`;
  }
}

export function renderTwin(page: Page): string {
  const body = parseMarkdown(page.markdown);
  const tree: Root = {
    type: 'root',
    children: [
      { type: 'heading', depth: 1, children: [{ type: 'text', value: page.title }] },
      { type: 'paragraph', children: [{ type: 'text', value: page.description }] },
      ...body.children,
      ...(page.signup ? parseMarkdown(signupMarkdown(page.lang)).children : []),
    ],
  };
  for (const node of walk(tree)) absolutize(node);
  return stringifyMarkdown(tree);
}
