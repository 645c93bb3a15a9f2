/**
 * The settings the build reads, from api/config.ts (the only reader of the environment; astro.config.mjs
 * has already refused a bad value by the time a page is rendered).
 */
import { loadConfig } from '../../api/config.ts';

/** Each documented in docs/configuration.md. */
export const { BASE_URL, CONTENT_SIGNALS, SECURITY_CONTACT } = loadConfig();
