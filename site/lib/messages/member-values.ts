/**
 * The placeholder values of one member's message (placeholders.ts): the shared ones once per
 * language, the member's own (the date they joined) per message.
 */
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { BRAND } from '../../../api/contract/brand.ts';
import { DEFAULT_LANG, LANGS, type Lang } from '../../../api/contract/enums.ts';
import type { MessageValues } from './placeholders.ts';

/** How each language writes a date: 20 November 2026, 20. November 2026. */
const DATE_FORMATS: Record<Lang, Intl.DateTimeFormat> = {
  en: new Intl.DateTimeFormat('en-GB', { dateStyle: 'long', timeZone: 'UTC' }),
  de: new Intl.DateTimeFormat('de-DE', { dateStyle: 'long', timeZone: 'UTC' }),
};

export interface SharedValues {
  baseUrl: string;
  /** INVITE_URL; undefined when unset (then {access_url} refuses). */
  accessUrl: string | undefined;
  /** The privacy notice's path in each language, e.g. /privacy/ and /de/datenschutz/. */
  privacyPaths: Record<Lang, string>;
}

/**
 * The path of the page with `key: <key>` in each language, as the site routes it
 * (content/<lang>/<slug>.md -> /<slug>/, with /<lang> in front for other than the default language).
 */
export async function pagePaths(root: string, key: string): Promise<Record<Lang, string>> {
  const paths = {} as Record<Lang, string>;
  for (const lang of LANGS) {
    const dir = path.join(root, 'content', lang);
    for (const name of (await readdir(dir)).filter((n) => n.endsWith('.md')).sort()) {
      const text = await readFile(path.join(dir, name), 'utf8');
      const front = /^---\n([\s\S]*?)\n---/.exec(text.replace(/\r\n?/g, '\n'))?.[1] ?? '';
      if (!new RegExp(`^key:\\s*['"]?${key}['"]?\\s*$`, 'm').test(front)) continue;
      const slug = name.slice(0, -'.md'.length);
      paths[lang] = `${lang === DEFAULT_LANG ? '' : `/${lang}`}/${slug === 'index' ? '' : `${slug}/`}`;
    }
    if (!paths[lang]) throw new Error(`content/${lang}/ has no page with key: ${key} (the messages link it)`);
  }
  return paths;
}

export function memberValues(shared: SharedValues, lang: Lang, createdAt: string): MessageValues {
  return {
    product: BRAND.product,
    operator_name: BRAND.operator.name,
    access_url: shared.accessUrl ?? '',
    joined_on: DATE_FORMATS[lang].format(new Date(createdAt)),
    privacy_url: `${shared.baseUrl}${shared.privacyPaths[lang]}`,
    leave_address: BRAND.operator.email,
  };
}
