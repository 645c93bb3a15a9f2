/**
 * Markdown as a tree (mdast): one parser and one serialiser (remark with GFM tables) for the
 * page twins, llms-full.txt, the reference page, the OpenAPI twin and the message templates, and
 * small builders, so that generated Markdown is built as a tree and never glued as text.
 */
import type { BlockContent, Heading, List, Nodes, PhrasingContent, Root, RootContent, Table, TableCell } from 'mdast';
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

export function stringifyMarkdown(children: RootContent[]): string {
  return processor.stringify({ type: 'root', children });
}

/** Every node of the tree, depth first. */
export function* walk(node: Nodes): Generator<Nodes> {
  yield node;
  if ('children' in node) for (const child of node.children) yield* walk(child);
}

/** Inline Markdown (e.g. a response description with code spans) as phrasing nodes. */
export function parseInline(markdown: string): PhrasingContent[] {
  return parseMarkdown(markdown).children.flatMap((node) => (node.type === 'paragraph' ? node.children : []));
}

export type Inline = PhrasingContent | string;

const phrasing = (parts: Inline[]): PhrasingContent[] =>
  parts.map((part) => (typeof part === 'string' ? { type: 'text', value: part } : part));

export const code = (value: string): PhrasingContent => ({ type: 'inlineCode', value });
export const strong = (...parts: Inline[]): PhrasingContent => ({ type: 'strong', children: phrasing(parts) });
export const link = (url: string, ...parts: Inline[]): PhrasingContent => ({ type: 'link', url, children: phrasing(parts) });

export const heading = (depth: number, ...parts: Inline[]): Heading => ({
  type: 'heading',
  depth: Math.min(Math.max(depth, 1), 6) as Heading['depth'],
  children: phrasing(parts),
});

export const paragraph = (...parts: Inline[]): BlockContent => ({ type: 'paragraph', children: phrasing(parts) });

export const codeBlock = (lang: string, value: string): BlockContent => ({ type: 'code', lang, value });

export const list = (items: Inline[][]): List => ({
  type: 'list',
  ordered: false,
  spread: false,
  children: items.map((parts) => ({ type: 'listItem', spread: false, children: [paragraph(...parts)] })),
});

const cell = (parts: Inline[]): TableCell => ({ type: 'tableCell', children: phrasing(parts) });

/** A GFM table; each cell is a list of inline parts. */
export const table = (header: string[], rows: Inline[][][]): Table => ({
  type: 'table',
  align: header.map(() => null),
  children: [header.map((h) => [h]), ...rows].map((row) => ({ type: 'tableRow', children: row.map(cell) })),
});
