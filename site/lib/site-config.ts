/**
 * The settings the build reads, from api/config.ts (the only reader of the environment; astro.config.mjs
 * has already refused a bad value by the time a page is rendered).
 */
import { loadConfig } from '../../api/config.ts';

/**
 * BASE_URL: public origin of the site, no trailing slash, e.g. `https://example.org`.
 * CONTENT_SIGNALS: of robots.txt and the pages' Content-Signal header (contentsignals.org).
 * SECURITY_CONTACT: RFC 9116 Contact URI for security.txt.
 */
export const { BASE_URL, CONTENT_SIGNALS, SECURITY_CONTACT } = loadConfig();
