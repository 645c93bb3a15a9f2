/**
 * The message templates of every language, read and compiled: what `waitlist invite` sends and
 * what `npm run build` checks, so a broken template stops the build before it stops a send.
 */
import { LANGS, type Lang } from '../../../api/contract/enums.ts';
import { compileMessage } from './render.ts';
import { readTemplateFile } from './template-file.ts';

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
