/** Where llms-full.txt of each language lives and how large it may grow (no build-time imports: tests read it). */
import { DEFAULT_LANG, type Lang } from '../../api/contract/enums.ts';

/**
 * The documented bound (docs/site.md). Mintlify flags an llms.txt beyond about 50,000 characters
 * as a truncation risk; the full text is meant to be fetched whole, so it may be larger, but a
 * quarter megabyte (about 64,000 tokens) still fits one context window of current models.
 */
export const LLMS_FULL_MAX_BYTES = 256 * 1024;

/** `/llms-full.txt`, `/de/llms-full.txt`. */
export function llmsFullPath(lang: Lang): string {
  return `${lang === DEFAULT_LANG ? '' : `/${lang}`}/llms-full.txt`;
}
