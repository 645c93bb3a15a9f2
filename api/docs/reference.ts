/**
 * The API reference page (PAGE_PATHS.reference), one entry per language: frontmatter fields of the
 * site's page collections and a Markdown body built from the OpenAPI document, as an mdast tree.
 * The operation details are the document's own English text in both languages.
 */
import { DEFAULT_LANG, DISCOVERY_PATHS, LANGS, PAGE_PATHS, type Lang } from '../contract/index.ts';
import { code, link, paragraph, parseMarkdown, stringifyMarkdown } from './markdown.ts';
import { openApiSections } from './openapi-markdown.ts';
import type { OpenApiDocument } from './openapi-types.ts';

export interface ReferenceEntry {
  /** Collection id `<lang>/<slug>`, which the site turns into PAGE_PATHS.reference[lang]. */
  id: string;
  data: { key: string; title: string; description: string; order: number };
  body: string;
}

/** Pairs the translations (site/lib/pages.ts); the guide is 'guide'. */
export const REFERENCE_KEY = 'api-reference';

const TEXT: Record<Lang, { title: string; description: string; intro: (doc: OpenApiDocument) => ReturnType<typeof paragraph>[] }> = {
  en: {
    title: 'API reference',
    description: 'Every operation of the waitlist API with its fields, statuses, headers and a curl example, generated from the OpenAPI document.',
    intro: (doc) => [
      paragraph(
        'This reference is generated at build time from the ',
        link(DISCOVERY_PATHS.openapi, `OpenAPI ${doc.openapi} document`),
        ' (also as ',
        link(DISCOVERY_PATHS.openapiMarkdown, 'Markdown'),
        `), API version ${doc.info.version}, so it always says what the API does. New here? The `,
        link(PAGE_PATHS.guide.en, 'API guide'),
        ' walks through the sandbox with curl.',
      ),
    ],
  },
  de: {
    title: 'API-Referenz',
    description: 'Alle Operationen der Wartelisten-API mit Feldern, Statuscodes, Headern und einem curl-Beispiel, erzeugt aus dem OpenAPI-Dokument.',
    intro: (doc) => [
      paragraph(
        'Diese Referenz wird beim Build aus dem ',
        link(DISCOVERY_PATHS.openapi, `OpenAPI-${doc.openapi}-Dokument`),
        ' (auch als ',
        link(DISCOVERY_PATHS.openapiMarkdown, 'Markdown'),
        `) erzeugt, API-Version ${doc.info.version}, und beschreibt daher immer, was die API tut. Zum Einstieg führt die `,
        link(PAGE_PATHS.guide.de, 'API-Anleitung'),
        ' mit curl durch die Sandbox.',
      ),
      paragraph(
        'Die Beschreibungen der Operationen, Felder und Statuscodes stehen, wie im OpenAPI-Dokument, auf Englisch. ',
        'Feldnamen, Werte und Header wie ',
        code('RateLimit-Remaining'),
        ' sind in beiden Sprachen dieselben.',
      ),
    ],
  },
};

function collectionId(lang: Lang): string {
  const path = PAGE_PATHS.reference[lang];
  const prefix = lang === DEFAULT_LANG ? '/' : `/${lang}/`;
  if (!path.startsWith(prefix)) throw new Error(`reference path ${path} is not under ${prefix}`);
  return `${lang}/${path.slice(prefix.length).replace(/\/$/, '')}`;
}

/** Order in the sitemap and llms.txt: right after the guide (order 40). */
const ORDER = 41;

export function referenceEntries(doc: OpenApiDocument): ReferenceEntry[] {
  return LANGS.map((lang) => {
    const text = TEXT[lang];
    const body = stringifyMarkdown([...text.intro(doc), ...parseMarkdown(doc.info.description).children, ...openApiSections(doc, 2)]);
    return { id: collectionId(lang), data: { key: REFERENCE_KEY, title: text.title, description: text.description, order: ORDER }, body };
  });
}
