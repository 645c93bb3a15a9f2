/** Content collections: each one in PAGE_COLLECTIONS follows docs/site.md, "For developers: more page collections". */
import { defineCollection } from 'astro:content';
import { pageSchema } from './lib/page-schema.ts';
import { MESSAGES_DIR } from './lib/messages/template-file.ts';
import { pagesLoader, referenceLoader } from './lib/loaders.ts';

export const collections = {
  // The glob base is relative to the project root, not to srcDir. content/skills/ holds the Agent
  // Skill (site/lib/skill.ts), not pages.
  // content/<lang>/messages/ holds e-mail templates (site/lib/messages/), never pages.
  pages: defineCollection({ loader: pagesLoader({ pattern: ['**/*.md', `!*/${MESSAGES_DIR}/**`, '!skills/**'], base: './content' }), schema: pageSchema }),
  // The API reference, generated from the OpenAPI document (docs/openapi.md).
  reference: defineCollection({ loader: referenceLoader(), schema: pageSchema }),
};
