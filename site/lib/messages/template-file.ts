/**
 * A message template as content editors write it: Markdown beside the pages, in
 * content/<lang>/messages/<name>.md, with a front matter of `key: value` lines. The only field is
 * `subject` (required). Every problem names the file and line, the way a bad page does.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Lang } from '../../../api/contract/enums.ts';

/** The folder of message templates inside each language folder of content/ (never pages). */
export const MESSAGES_DIR = 'messages';

export class TemplateError extends Error {}

/** Reads and splits a template; TemplateError (file:line) when the file or its front matter is wrong. */
export async function readTemplateFile(root: string, lang: Lang, name: string) {
  const file = path.join(root, 'content', lang, MESSAGES_DIR, `${name}.md`);
  const source = path.relative(root, file).split(path.sep).join('/');
  const text = await readFile(file, 'utf8').catch((error: NodeJS.ErrnoException) => {
    throw new TemplateError(`${source}: ${error.code === 'ENOENT' ? 'missing: write the message in this file' : error.message}`);
  });
  return parseTemplateFile(text.replace(/\r\n?/g, '\n'), source, lang);
}

/** `source`: the file relative to the project root (content/de/messages/invite.md); lines are the file's, from 1. */
export function parseTemplateFile(text: string, source: string, lang: Lang) {
  const lines = text.split('\n');
  if (lines[0] !== '---') throw new TemplateError(`${source}:1: expected front matter: a line "---", then "subject: …", then "---"`);
  const end = lines.indexOf('---', 1);
  if (end === -1) throw new TemplateError(`${source}:1: the front matter has no closing "---" line`);
  let subject: { value: string; line: number } | undefined;
  for (let i = 1; i < end; i++) {
    if (!lines[i].trim()) continue;
    const match = /^([A-Za-z_]+):\s*(.*)$/.exec(lines[i]);
    if (!match) throw new TemplateError(`${source}:${i + 1}: expected "field: value" in the front matter`);
    const [, key, raw] = match;
    if (key !== 'subject') throw new TemplateError(`${source}:${i + 1}: unknown field ${key}: remove it or correct its spelling (fields: subject)`);
    subject = { value: unquote(raw.trim()), line: i + 1 };
  }
  if (!subject || !subject.value) {
    throw new TemplateError(`${source}:${subject?.line ?? 1}: the front matter needs a subject, e.g. subject: Your place is ready`);
  }
  return { source, lang, subject: subject.value, subjectLine: subject.line, body: lines.slice(end + 1).join('\n'), bodyLine: end + 2 };
}

export type TemplateFile = ReturnType<typeof parseTemplateFile>;

function unquote(value: string): string {
  const quoted = /^'(.*)'$/.exec(value) ?? /^"(.*)"$/.exec(value);
  return quoted ? quoted[1].replaceAll(value[0] === "'" ? "''" : '\\"', value[0]) : value;
}
