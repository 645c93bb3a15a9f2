/**
 * The message templates of every language, read (template-file.ts) and compiled: what `waitlist
 * invite` sends and what `npm run build` checks, so a broken template stops the build before it
 * stops a send. Each is compiled once into the subject, an HTML body and a plain text body,
 * placeholders still in place; fillMessage() then makes each member's copy. The body
 * goes through the site's Markdown parser (api/docs/markdown.ts). The HTML is deliberately plain:
 * inline styles only (mail clients drop style sheets), no images, so it reads the same in every
 * client and with images blocked; the text part says the same in words and bare links.
 */
import type { Nodes } from 'mdast';
import { BRAND } from '../../../api/contract/brand.ts';
import { LANGS, type Lang } from '../../../api/contract/enums.ts';
import { escapeHtml } from '../../../api/docs/escape-html.ts';
import { parseMarkdown, walk } from '../../../api/docs/markdown.ts';
import { isMessagePlaceholder, MESSAGE_PLACEHOLDERS, PLACEHOLDER, REQUIRED_PLACEHOLDERS } from './placeholders.ts';
import { readTemplateFile, TemplateError, type TemplateFile } from './template-file.ts';

const STYLE = {
  body: 'margin:0;padding:0;background:#ffffff;',
  frame: 'max-width:560px;margin:0 auto;padding:24px;font-family:Arial,Helvetica,sans-serif;font-size:16px;line-height:1.5;color:#1a1a1a;',
  p: 'margin:0 0 16px;',
  h2: 'margin:24px 0 12px;font-size:20px;line-height:1.3;',
  h3: 'margin:20px 0 8px;font-size:17px;line-height:1.3;',
  a: 'color:#1a4fd6;text-decoration:underline;',
  list: 'margin:0 0 16px;padding-left:24px;',
  li: 'margin:0 0 8px;',
  code: 'font-family:Menlo,Consolas,monospace;font-size:14px;',
  quote: 'margin:0 0 16px;padding-left:12px;border-left:3px solid #cccccc;color:#444444;',
  hr: 'border:0;border-top:1px solid #dddddd;margin:24px 0;',
  footer: 'margin:0;font-size:13px;line-height:1.5;color:#555555;',
};

/** The messages there are (content/<lang>/messages/<name>.md in every language). */
export const MESSAGE_NAMES = ['invite'] as const;
export type MessageName = (typeof MESSAGE_NAMES)[number];

/** One message in every language; TemplateError (file:line) at the first problem. */
export async function loadMessage(root: string, name: MessageName) {
  const compiled = {} as Record<Lang, ReturnType<typeof compileMessage>>;
  for (const lang of LANGS) compiled[lang] = compileMessage(await readTemplateFile(root, lang, name));
  return compiled;
}

/** For the build: every message in every language compiles. */
export async function checkMessageTemplates(root: string): Promise<void> {
  for (const name of MESSAGE_NAMES) await loadMessage(root, name);
}

/** Checks the placeholders (file:line) and the Markdown, and renders both bodies. */
function compileMessage(file: TemplateFile) {
  const check = (text: string, line: number) => {
    for (const [whole, name] of text.matchAll(PLACEHOLDER)) {
      if (!isMessagePlaceholder(name)) {
        throw new TemplateError(`${file.source}:${line}: unknown placeholder ${whole}. Known placeholders: ${MESSAGE_PLACEHOLDERS.map((n) => `{${n}}`).join(', ')} (see docs/operator.md)`);
      }
    }
  };
  check(file.subject, file.subjectLine);
  file.body.split('\n').forEach((line, i) => check(line, file.bodyLine + i));
  for (const name of REQUIRED_PLACEHOLDERS) {
    if (!file.body.includes(`{${name}}`)) {
      throw new TemplateError(`${file.source}:${file.bodyLine}: the message must use {${name}}: every message says when the reader joined, links the privacy notice and says how to leave the list`);
    }
  }
  const tree = parseMarkdown(file.body);
  const at = (node: Nodes) => `${file.source}:${(node.position?.start.line ?? 1) + file.bodyLine - 1}`;
  for (const node of walk(tree)) {
    if (node.type === 'heading' && node.depth === 1) throw new TemplateError(`${at(node)}: no H1 (# …) in a message: the subject is its title; use ##`);
    if (!RENDERED.has(node.type)) {
      throw new TemplateError(`${at(node)}: ${node.type} is not allowed in a message (plain paragraphs, headings, lists, links, emphasis; no images, HTML or tables)`);
    }
  }
  const op = BRAND.operator;
  const address = [op.name, op.street, op.city, op.country[file.lang]];
  const html =
    `<!DOCTYPE html>\n<html lang="${file.lang}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">` +
    `<title>${escapeHtml(file.subject)}</title></head>\n<body style="${STYLE.body}"><div style="${STYLE.frame}">\n` +
    tree.children.map(toHtml).join('\n') +
    `\n<hr style="${STYLE.hr}">\n<p style="${STYLE.footer}">${address.map(escapeHtml).join('<br>')}<br>` +
    `<a style="${STYLE.a}" href="mailto:${escapeHtml(op.email)}">${escapeHtml(op.email)}</a></p>\n</div></body></html>\n`;
  const text = `${tree.children.map((node) => toText(node, '')).join('\n\n')}\n\n-- \n${[...address, op.email].join('\n')}\n`;
  return { source: file.source, lang: file.lang, subject: file.subject, html, text };
}

const RENDERED = new Set(['root', 'paragraph', 'heading', 'text', 'emphasis', 'strong', 'link', 'list', 'listItem', 'break', 'inlineCode', 'thematicBreak', 'blockquote']);

function toHtml(node: Nodes): string {
  const inner = () => ('children' in node ? (node.children as Nodes[]).map(toHtml).join('') : '');
  switch (node.type) {
    case 'paragraph':
      return `<p style="${STYLE.p}">${inner()}</p>`;
    case 'heading':
      return node.depth === 2 ? `<h2 style="${STYLE.h2}">${inner()}</h2>` : `<h3 style="${STYLE.h3}">${inner()}</h3>`;
    case 'text':
      return escapeHtml(node.value);
    case 'emphasis':
      return `<em>${inner()}</em>`;
    case 'strong':
      return `<strong>${inner()}</strong>`;
    case 'link':
      return `<a style="${STYLE.a}" href="${escapeHtml(node.url)}">${inner()}</a>`;
    case 'list': {
      const tag = node.ordered ? 'ol' : 'ul';
      return `<${tag} style="${STYLE.list}">${node.children.map(toHtml).join('')}</${tag}>`;
    }
    case 'listItem':
      // A tight list's items hold bare paragraphs: no paragraph margins inside an item.
      return `<li style="${STYLE.li}">${node.children.map((child) => (child.type === 'paragraph' ? child.children.map(toHtml).join('') : toHtml(child))).join('<br>')}</li>`;
    case 'break':
      return '<br>';
    case 'inlineCode':
      return `<code style="${STYLE.code}">${escapeHtml(node.value)}</code>`;
    case 'thematicBreak':
      return `<hr style="${STYLE.hr}">`;
    case 'blockquote':
      return `<blockquote style="${STYLE.quote}">${inner()}</blockquote>`;
    default:
      return inner();
  }
}

/** Plain text: paragraphs as lines, a link as its text and its address, lists with their markers. */
function toText(node: Nodes, indent: string): string {
  const inner = () => ('children' in node ? (node.children as Nodes[]).map((child) => toText(child, indent)).join('') : '');
  switch (node.type) {
    case 'text':
    case 'inlineCode':
      return node.value;
    case 'break':
      return `\n${indent}`;
    case 'link': {
      const label = inner();
      return label === node.url ? node.url : `${label} (${node.url})`;
    }
    case 'heading':
      return inner();
    case 'list':
      return node.children
        .map((item, i) => {
          const marker = node.ordered ? `${(node.start ?? 1) + i}. ` : '- ';
          return `${indent}${marker}${item.children.map((child) => toText(child, `${indent}${' '.repeat(marker.length)}`)).join(`\n${indent}${' '.repeat(marker.length)}`)}`;
        })
        .join('\n');
    case 'blockquote':
      return (node.children as Nodes[]).map((child) => `> ${toText(child, indent)}`).join('\n>\n');
    case 'thematicBreak':
      return '---';
    default:
      return inner();
  }
}
