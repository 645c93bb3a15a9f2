/**
 * Frontmatter of every page collection (content/ today, the API reference later). Checked at build
 * by Astro: a bad page fails the build with its file and the field named. Uses Astro's bundled zod
 * (`astro/zod`), never the contract's schemas.
 */
import { z } from 'astro/zod';

export const pageSchema = z
  .object({
    /** Pairs a page with its translation: the same key in content/en and content/de. */
    key: z
      .string()
      .regex(/^[a-z][a-z0-9-]*$/, 'expected lower-case letters, digits and hyphens, e.g. "privacy"'),
    /** <title>, the page's H1 and the twin's H1. */
    title: z.string().trim().min(1).max(80),
    /** <meta name="description">, the lead paragraph and the note in llms.txt; one line. */
    description: z
      .string()
      .trim()
      .min(20)
      .max(200)
      .regex(/^[^\n]*$/, 'expected a single line'),
    /** Show the sign-up form (hero and call to action) on this page. */
    signup: z.boolean().default(false),
    /** Sort order in llms.txt and the sitemap (lower first; then by path). */
    order: z.number().int().min(0).max(1000).default(100),
    /** Last substantial change, shown as <lastmod> in the sitemap (YYYY-MM-DD). */
    updated: z.coerce.date().optional(),
  })
  .strict();

export type PageData = z.infer<typeof pageSchema>;
