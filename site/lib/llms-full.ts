/** /llms-full.txt and /de/llms-full.txt (the Mintlify convention; docs/site.md, "Discovery files"). */
import type { Heading, RootContent } from 'mdast';
import type { Lang } from '../../api/contract/enums.ts';
import { BRAND } from '../../api/contract/brand.ts';
import { heading, link, paragraph, stringifyMarkdown, walk } from '../../api/docs/markdown.ts';
import { LLMS_FULL_MAX_BYTES, llmsFullPath } from './llms-full-path.ts';
import type { Page } from './pages.ts';
import { twinTree } from './twin.ts';

const HEADING: Record<Lang, { title: string; summary: string; source: string }> = {
  en: {
    title: `${BRAND.product}: the whole site in one file`,
    summary: `Every English page of the ${BRAND.product} waitlist site and the API reference, as Markdown. Each section is one page; its URL is under its title.`,
    source: 'Page:',
  },
  de: {
    title: `${BRAND.product}: die ganze Website in einer Datei`,
    summary: `Alle deutschen Seiten der ${BRAND.product}-Warteliste und die API-Referenz als Markdown. Jeder Abschnitt ist eine Seite; ihre URL steht unter dem Titel.`,
    source: 'Seite:',
  },
};

export function buildLlmsFull(pages: readonly Page[], lang: Lang, baseUrl: string): string {
  const text = HEADING[lang];
  const children: RootContent[] = [heading(1, text.title), { type: 'blockquote', children: [paragraph(text.summary)] }];
  for (const page of pages.filter((p) => p.lang === lang && p.kind === 'page')) {
    const twin = twinTree(page);
    for (const node of walk({ type: 'root', children: twin })) {
      if (node.type === 'heading') node.depth = Math.min(6, node.depth + 1) as Heading['depth'];
    }
    const [title, ...rest] = twin;
    const url = `${baseUrl}${page.path}`;
    children.push({ type: 'thematicBreak' }, title!, paragraph(`${text.source} `, link(url, url)), ...rest);
  }
  const body = stringifyMarkdown(children);
  if (Buffer.byteLength(body) > LLMS_FULL_MAX_BYTES) {
    throw new Error(`${llmsFullPath(lang)} is ${Buffer.byteLength(body)} bytes, more than LLMS_FULL_MAX_BYTES (${LLMS_FULL_MAX_BYTES}) in site/lib/llms-full.ts: shorten pages or raise the bound and its note in docs/site.md`);
  }
  return body;
}
