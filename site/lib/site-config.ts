/**
 * The settings the build reads, from api/config.ts (the only reader of the environment; astro.config.mjs
 * has already refused a bad value by the time a page is rendered).
 */
import { loadConfig } from '../../api/config.ts';

const config = loadConfig();

/** Public origin of the site, no trailing slash, e.g. `https://example.org`. */
export const BASE_URL: string = config.BASE_URL;

/** Content Signals of robots.txt and the pages' Content-Signal header (contentsignals.org). */
export const CONTENT_SIGNALS: string = config.CONTENT_SIGNALS;

/**
 * The AI crawlers robots.txt names, each with the same rules and Content Signals as `*`, so a
 * reader that looks for its own user agent finds the policy stated for it.
 */
export const AI_CRAWLERS = ['GPTBot', 'OAI-SearchBot', 'ChatGPT-User', 'ClaudeBot', 'Claude-User', 'Google-Extended', 'PerplexityBot', 'CCBot', 'Applebot-Extended', 'meta-externalagent'] as const;

/** RFC 9116 Contact URI for security.txt. */
export const SECURITY_CONTACT: string = config.SECURITY_CONTACT;
