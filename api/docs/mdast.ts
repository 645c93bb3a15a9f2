/**
 * Small mdast (Markdown syntax tree) builders and the one serialiser: the Markdown twin and the
 * reference page are built as trees and stringified by remark (with GFM tables), never glued.
 */
import type { BlockContent, Heading, List, PhrasingContent, Root, RootContent, Table, TableCell } from 'mdast';
import remarkGfm from 'remark-gfm';
import remarkParse from 'remark-parse';
import remarkStringify from 'remark-stringify';
import { unified } from 'unified';

export type Inline = PhrasingContent | string;

const phrasing = (parts: Inline[]): PhrasingContent[] =>
  parts.map((part) => (typeof part === 'string' ? { type: 'text', value: part } : part));

export const text = (value: string): PhrasingContent => ({ type: 'text', value });
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

/** Prose authored as Markdown in the contract (descriptions) becomes tree nodes, not text. */
export function parseMarkdown(markdown: string): RootContent[] {
  return unified().use(remarkParse).use(remarkGfm).parse(markdown).children;
}

/** Inline Markdown (e.g. a response description with code spans) as phrasing nodes. */
export function parseInline(markdown: string): PhrasingContent[] {
  return parseMarkdown(markdown).flatMap((node) => (node.type === 'paragraph' ? node.children : []));
}

export function stringify(children: RootContent[]): string {
  const root: Root = { type: 'root', children };
  return unified()
    .use(remarkGfm)
    .use(remarkStringify, { bullet: '-', fences: true, rule: '-', emphasis: '_', listItemIndent: 'one' })
    .stringify(root);
}
