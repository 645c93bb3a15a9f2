/**
 * What the browser tests know about the site: where the pages are, how to find a sign-up form and
 * its fields, and which words a visitor should read in each language (from the same sources the
 * site is built from: site/i18n.ts and content/).
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Locator, Page, Request } from 'playwright-core';
import type { Lang, Source } from '../../../api/contract/enums.ts';
import { API_PATHS, THANKS_PATHS } from '../../../api/contract/paths.ts';
import { BRAND } from '../../../api/contract/brand.ts';
import { FIELD } from '../../../site/lib/signup-fields.ts';
import { ROOT } from '../../support/stack.ts';

/** A sign-up form of the page, by its `source` (hero near the top, cta further down). */
export function signupForm(page: Page, source: Source): Locator {
  return page.locator(`form[data-signup]:has(input[name="${FIELD.source}"][value="${source}"])`);
}

export function field(form: Locator, name: keyof typeof FIELD): Locator {
  return form.locator(`[name="${FIELD[name]}"]`);
}

/** The title of the thanks page of a language, as written in its Markdown source. */
export async function thanksTitle(lang: Lang): Promise<string> {
  const slug = THANKS_PATHS[lang].split('/').filter(Boolean).pop()!;
  const source = await readFile(path.join(ROOT, 'content', lang, `${slug}.md`), 'utf8');
  const title = /^title:\s*(.+)$/m.exec(source)?.[1].trim().replace(/^'(.*)'$/, '$1');
  if (!title) throw new Error(`content/${lang}/${slug}.md has no title`);
  return title.replaceAll('{product}', BRAND.product);
}

const WAITLIST_PATHS = new Set<string>([API_PATHS.waitlist, API_PATHS.waitlistLegacy]);

/** Collects every waitlist POST the page sends from now on. */
export function recordWaitlistPosts(page: Page): Request[] {
  const posts: Request[] = [];
  page.on('request', (request) => {
    if (request.method() === 'POST' && WAITLIST_PATHS.has(new URL(request.url()).pathname)) posts.push(request);
  });
  return posts;
}
