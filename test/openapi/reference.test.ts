import { describe, expect, it } from 'vitest';
import { DEFAULT_LANG, LANGS, PAGE_PATHS, ROUTES, type Route } from '../../api/contract/index.ts';
import { methodKey } from '../../api/docs/operations.ts';
import { buildOpenApiDocument } from '../../api/docs/openapi.ts';
import { referenceEntries } from '../../api/docs/reference.ts';

const doc = buildOpenApiDocument('https://waitlist.example.net');
const entries = referenceEntries(doc);

describe('API reference page entries', () => {
  it('one entry per language, with the collection id that the site turns into PAGE_PATHS.reference', () => {
    // site/lib/pages.ts: id `<lang>/<a>/<b>` is the page `/<a>/<b>/`, under `/<lang>` except for the default language.
    const routes = entries.map((e) => {
      const [lang, ...rest] = e.id.split('/');
      return `${lang === DEFAULT_LANG ? '' : `/${lang}`}/${rest.map((s) => `${s}/`).join('')}`;
    });
    expect(routes).toEqual(LANGS.map((lang) => PAGE_PATHS.reference[lang]));
    expect(new Set(entries.map((e) => e.data.key)).size).toBe(1);
  });

  it.each(LANGS)('%s: frontmatter fits the page schema limits (title <= 80, one-line description of 20-200 characters)', (lang) => {
    const { data } = entries[LANGS.indexOf(lang)]!;
    expect(data.title.length).toBeLessThanOrEqual(80);
    expect(data.description.length).toBeGreaterThanOrEqual(20);
    expect(data.description.length).toBeLessThanOrEqual(200);
    expect(data.description).not.toContain('\n');
  });

  it.each(LANGS)('%s: the body has no H1 and no raw HTML, and a section for every operation', (lang) => {
    const { body } = entries[LANGS.indexOf(lang)]!;
    expect(body).not.toMatch(/^# /m);
    expect(body).not.toMatch(/^<[a-z]/im);
    for (const route of ROUTES as readonly Route[]) {
      expect(body).toContain(`### \`${methodKey(route.methods).toUpperCase()} ${route.path}\`: ${route.summary}`);
    }
  });

  it.each(LANGS)('%s: no {name} sequences, which the site would read as unknown placeholders', (lang) => {
    expect(entries[LANGS.indexOf(lang)]!.body).not.toMatch(/(?<!\$)\{[a-z_]+\}/);
  });

  it('the German page is introduced in German and says that the details are in English', () => {
    const de = entries[LANGS.indexOf('de')]!;
    expect(de.data.title).toBe('API-Referenz');
    expect(de.body).toContain('auf Englisch');
  });
});
