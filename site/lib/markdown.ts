/** Markdown as a tree (mdast) for the twins and the build-time content checks. */
import type { Nodes, Root } from 'mdast';
import remarkGfm from 'remark-gfm';
import remarkParse from 'remark-parse';
import remarkStringify from 'remark-stringify';
import { unified } from 'unified';

const processor = unified()
  .use(remarkParse)
  .use(remarkGfm)
  .use(remarkStringify, { bullet: '-', emphasis: '_', fences: true, rule: '-' });

export function parseMarkdown(markdown: string): Root {
  return processor.parse(markdown);
}

export function stringifyMarkdown(tree: Root): string {
  return processor.stringify(tree);
}

/** Every node of the tree, depth first. */
export function* walk(node: Nodes): Generator<Nodes> {
  yield node;
  if ('children' in node) for (const child of node.children) yield* walk(child);
}

/**
 * The page layout writes the title as the only H1, and twins must stay readable without a
 * browser, so a page body has no H1 and no raw HTML.
 */
export function checkPageMarkdown(markdown: string, source: string): void {
  for (const node of walk(parseMarkdown(markdown))) {
    const line = node.position ? ` (body line ${node.position.start.line})` : '';
    if (node.type === 'heading' && node.depth === 1) {
      throw new Error(`${source}${line}: the body must not contain an H1 (# …); the title is the H1. Start sections with ##.`);
    }
    if (node.type === 'html') {
      throw new Error(`${source}${line}: raw HTML is not allowed in page Markdown (twins must be clean Markdown): ${node.value.slice(0, 60)}`);
    }
  }
}
