/**
 * The content-layer loaders of the page collections. content/: Astro's glob loader, but a save with
 * bad frontmatter, which `astro dev` only logs while it serves the last good version, leaves a
 * marker that getAllPages() (site/lib/pages.ts) throws, so the preview shows the mistake
 * (docs/site.md, "Live preview for editors"). The build fails at the same error as before.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { glob, type Loader } from 'astro/loaders';
import { buildOpenApiDocument } from '../../api/docs/openapi.ts';
import { referenceEntries } from '../../api/docs/reference.ts';
import { BASE_URL } from './site-config.ts';

/** Data of an entry whose frontmatter failed its schema: the message the editor must see. */
export const BROKEN_ENTRY = '__pageError';

export function pagesLoader(options: { pattern: string | string[]; base: string }): Loader {
  const inner = glob(options);
  return {
    name: 'pages',
    load: (context) =>
      inner.load({
        ...context,
        parseData: async (props) => {
          try {
            return await context.parseData(props);
          } catch (error) {
            // The store wants the path relative to the project root, as does the editor.
            const root = fileURLToPath(context.config.root);
            const filePath = props.filePath && path.relative(root, path.resolve(root, props.filePath)).split(path.sep).join('/');
            const message = `${filePath ?? props.id}: ${(error as Error).message}`;
            context.store.set({ id: props.id, data: { [BROKEN_ENTRY]: message }, filePath, digest: context.generateDigest(message) });
            throw error;
          }
        },
      }),
  };
}

/**
 * The 'reference' collection: the API reference page in every language, generated from the OpenAPI
 * document (api/docs/reference.ts) instead of read from content/, with the same frontmatter.
 */
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
