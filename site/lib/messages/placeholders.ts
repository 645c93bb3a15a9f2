/**
 * The placeholders of message templates, written `{name}` as in page Markdown (site/lib/placeholders.ts),
 * and their values for one member. A small fixed set: an unknown name, or a template without the
 * ones every message must carry, fails `npm run build` and `waitlist invite` with the file and line.
 */
import { BRAND } from '../../../api/contract/brand.ts';
import type { Lang } from '../../../api/contract/enums.ts';
import { PAGE_PATHS } from '../../../api/contract/paths.ts';

/** What each one becomes, and why three are required: docs/operator.md, "The message". */
export const MESSAGE_PLACEHOLDERS = ['product', 'operator_name', 'access_url', 'joined_on', 'privacy_url', 'leave_address'] as const;

export type MessagePlaceholder = (typeof MESSAGE_PLACEHOLDERS)[number];
export type MessageValues = Record<MessagePlaceholder, string>;

export const REQUIRED_PLACEHOLDERS: readonly MessagePlaceholder[] = ['joined_on', 'privacy_url', 'leave_address'];

/** `{name}`-like text: a known name is a placeholder; any other is a mistake to report (`{accessUrl}`, `{{x}}`). */
export const PLACEHOLDER = /(?<!\$)\{([A-Za-z0-9_.-]+)\}/g;

export function isMessagePlaceholder(name: string): name is MessagePlaceholder {
  return (MESSAGE_PLACEHOLDERS as readonly string[]).includes(name);
}

/** Replaces every `{name}` by its value, passed through `escape` (HTML) or as is (text). */
export function fillMessage(text: string, values: MessageValues, escape: (value: string) => string = (v) => v): string {
  return text.replace(PLACEHOLDER, (whole, name: string) => (isMessagePlaceholder(name) ? escape(values[name]) : whole));
}

/** How each language writes a date: 20 November 2026, 20. November 2026. */
const DATE_FORMATS: Record<Lang, Intl.DateTimeFormat> = {
  en: new Intl.DateTimeFormat('en-GB', { dateStyle: 'long', timeZone: 'UTC' }),
  de: new Intl.DateTimeFormat('de-DE', { dateStyle: 'long', timeZone: 'UTC' }),
};

/** One member's values; `accessUrl`: INVITE_URL, undefined when unset (then {access_url} refuses). */
export function memberValues(shared: { baseUrl: string; accessUrl: string | undefined }, lang: Lang, createdAt: string): MessageValues {
  return {
    product: BRAND.product,
    operator_name: BRAND.operator.name,
    access_url: shared.accessUrl ?? '',
    joined_on: DATE_FORMATS[lang].format(new Date(createdAt)),
    privacy_url: `${shared.baseUrl}${PAGE_PATHS.privacy[lang]}`,
    leave_address: BRAND.operator.email,
  };
}
