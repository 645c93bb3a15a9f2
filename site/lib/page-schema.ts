/**
 * Frontmatter of every page collection; each field's meaning: docs/site.md, "Frontmatter". Checked at
 * build and by `npm run dev` on each save: the messages below are what an editor reads. Uses Astro's
 * bundled zod (`astro/zod`), never the contract's schemas.
 */
import { z } from 'astro/zod';

const FIELDS = 'key, title, description, signup, order, updated';

export const pageSchema = z.strictObject(
  {
    key: z
      .string({ error: 'required: the key that pairs this page with its translation, e.g. key: privacy' })
      .regex(/^[a-z][a-z0-9-]*$/, 'expected lower-case letters, digits and hyphens, e.g. "privacy"'),
    title: z
      .string({ error: 'required: the page title, e.g. title: Privacy notice' })
      .trim()
      .min(1, 'must not be empty: write the page title')
      .max(80, 'at most 80 characters: shorten the title'),
    description: z
      .string({ error: 'required: one sentence of 20 to 200 characters that says what the page is for' })
      .trim()
      .min(20, 'at least 20 characters: write one sentence that says what the page is for')
      .max(200, 'at most 200 characters: shorten it to one sentence')
      .regex(/^[^\n]*$/, 'expected a single line: join the lines, and quote the text if it contains a colon'),
    signup: z.boolean({ error: 'expected true or false' }).default(false),
    order: z.number({ error: 'expected a whole number from 0 to 1000' }).int().min(0).max(1000).default(100),
    updated: z.coerce.date({ error: 'expected a date written YYYY-MM-DD' }).optional(),
  },
  {
    error: (issue) =>
      issue.code === 'unrecognized_keys' ? `unknown field ${issue.keys.join(', ')}: remove it or correct its spelling (fields: ${FIELDS})` : undefined,
  },
);

export type PageData = z.infer<typeof pageSchema>;
