/**
 * The API reference page (PAGE_PATHS.reference), one entry per language: frontmatter fields of the
 * site's page collections and a Markdown body built from the OpenAPI document, as an mdast tree.
 * The operation details are the document's own English text in both languages.
 */
import { DEFAULT_LANG, DISCOVERY_PATHS, LANGS, PAGE_PATHS, type Lang } from '../contract/index.ts';
import { code, link, paragraph, parseMarkdown, stringifyMarkdown } from './markdown.ts';
import { openApiSections } from './openapi-markdown.ts';
import type { OpenApiDocument } from './openapi.ts';

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

/** The entries of the site's 'reference' collection; order 41 puts them right after the guide (40). */
export function referenceEntries(doc: OpenApiDocument) {
  return LANGS.map((lang) => {
    const text = TEXT[lang];
    // `/de/entwickler/referenz/` -> `entwickler/referenz`: the language folder is the id's first part.
    const slug = PAGE_PATHS.reference[lang].split('/').filter(Boolean).slice(lang === DEFAULT_LANG ? 0 : 1).join('/');
    const body = stringifyMarkdown([...text.intro(doc), ...parseMarkdown(doc.info.description).children, ...openApiSections(doc, 2)]);
    return { id: `${lang}/${slug}`, data: { key: 'api-reference', title: text.title, description: text.description, order: 41 }, body };
  });
}
