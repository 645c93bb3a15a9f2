/**
 * Content-layer loader of the 'reference' collection: the API reference page in every language,
 * generated from the OpenAPI document (api/docs/reference.ts) instead of read from content/.
 * Entries have the same frontmatter as the 'pages' collection and a rendered Markdown body.
 */
import type { Loader } from 'astro/loaders';
import { buildOpenApiDocument } from '../../api/docs/openapi.ts';
import { referenceEntries } from '../../api/docs/reference.ts';
import { BASE_URL } from './site-config.ts';

export function referenceLoader(): Loader {
  return {
    name: 'openapi-reference',
    load: async ({ store, parseData, renderMarkdown, generateDigest }) => {
      store.clear();
      for (const entry of referenceEntries(buildOpenApiDocument(BASE_URL))) {
        const data = await parseData({ id: entry.id, data: entry.data });
        store.set({ id: entry.id, data, body: entry.body, rendered: await renderMarkdown(entry.body), digest: generateDigest(entry.body) });
      }
    },
  };
}
