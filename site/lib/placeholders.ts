/**
 * `{name}` placeholders in page Markdown (docs/site.md, "Placeholders"), so content editors never
 * write the base URL, the operator's data or a contract number by hand.
 */
import {
  API_VERSION,
  BODY_LIMIT_BYTES,
  EMAIL_MAX_LENGTH,
  RATE_LIMIT_POLICIES,
  RATE_LIMIT_WINDOW_SECONDS,
  STATS_SCOPE,
  TOKEN_TTL_SECONDS,
} from '../../api/contract/limits.ts';
import type { Lang } from '../../api/contract/enums.ts';
import { BRAND } from '../../api/contract/brand.ts';
import { escapeHtml } from '../../api/docs/escape-html.ts';
import { BASE_URL } from './site-config.ts';

export function placeholderValues(lang: Lang): Record<string, string> {
  const op = BRAND.operator;
  return {
    base_url: BASE_URL,
    product: BRAND.product,
    product_long: BRAND.productLong,
    tagline: BRAND.tagline[lang],
    operator_name: op.name,
    operator_street: op.street,
    operator_city: op.city,
    operator_country: op.country[lang],
    operator_register: op.register,
    operator_vat_id: op.vatId,
    operator_representative: op.representative,
    operator_email: op.email,
    privacy_email: op.privacyEmail,
    api_version: API_VERSION,
    token_ttl_seconds: String(TOKEN_TTL_SECONDS),
    token_ttl_minutes: String(TOKEN_TTL_SECONDS / 60),
    rate_limit_standard: String(RATE_LIMIT_POLICIES.standard),
    rate_limit_relaxed: String(RATE_LIMIT_POLICIES.relaxed),
    rate_limit_window_seconds: String(RATE_LIMIT_WINDOW_SECONDS),
    email_max_length: String(EMAIL_MAX_LENGTH),
    body_limit_kb: String(BODY_LIMIT_BYTES / 1024),
    stats_scope: STATS_SCOPE,
  };
}

const PLAIN = /(?<!\$)\{([a-z_]+)\}/g;
// The Markdown renderer percent-encodes braces inside link destinations.
const ENCODED = /%7B([a-z_]+)%7D/gi;

function lookup(values: Record<string, string>, name: string, source: string): string {
  const value = values[name];
  if (value === undefined) {
    const known = Object.keys(values).map((n) => `{${n}}`);
    throw new Error(`${source}: unknown placeholder {${name}}. Known placeholders: ${known.join(', ')} (see docs/site.md).`);
  }
  return value;
}

/** Replaces placeholders in Markdown or plain text; an unknown name fails the build. */
export function fillText(text: string, lang: Lang, source: string): string {
  const values = placeholderValues(lang);
  return text.replace(PLAIN, (_, name: string) => lookup(values, name, source));
}

/** Replaces placeholders in rendered HTML: text, code and (percent-encoded) link targets. */
export function fillHtml(html: string, lang: Lang, source: string): string {
  const values = placeholderValues(lang);
  const replace = (_: string, name: string) => escapeHtml(lookup(values, name, source));
  return html.replace(PLAIN, replace).replace(ENCODED, replace);
}
