/**
 * The YAML front matter of a twin, read with a real YAML 1.2 parser (js-yaml, which Astro brings),
 * so a title with a colon or a quote that would break YAML makes the test fail.
 */
import { createRequire } from 'node:module';

const yaml = createRequire(import.meta.url)('js-yaml') as { load(text: string, options?: { schema?: unknown }): unknown; JSON_SCHEMA: unknown };

export interface TwinFrontMatter {
  title: string;
  description: string;
  canonical?: string;
  lang: string;
  alternates?: Record<string, string>;
}

/** Splits `---\n…\n---\n\n` off the twin; throws when the twin does not start with it. */
export function splitFrontMatter(markdown: string): { data: TwinFrontMatter; body: string } {
  const match = /^---\n([\s\S]*?)\n---\n\n/.exec(markdown);
  if (!match) throw new Error(`the twin does not start with YAML front matter: ${JSON.stringify(markdown.slice(0, 60))}`);
  return { data: yaml.load(match[1], { schema: yaml.JSON_SCHEMA }) as TwinFrontMatter, body: markdown.slice(match[0].length) };
}
