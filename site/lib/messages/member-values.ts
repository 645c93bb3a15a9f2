/**
 * The placeholder values of one member's message (placeholders.ts): the shared ones once per
 * language, the member's own (the date they joined) per message.
 */
import { BRAND } from '../../../api/contract/brand.ts';
import type { Lang } from '../../../api/contract/enums.ts';
import { PAGE_PATHS } from '../../../api/contract/paths.ts';
import type { MessageValues } from './placeholders.ts';

/** How each language writes a date: 20 November 2026, 20. November 2026. */
const DATE_FORMATS: Record<Lang, Intl.DateTimeFormat> = {
  en: new Intl.DateTimeFormat('en-GB', { dateStyle: 'long', timeZone: 'UTC' }),
  de: new Intl.DateTimeFormat('de-DE', { dateStyle: 'long', timeZone: 'UTC' }),
};

/** `accessUrl`: INVITE_URL; undefined when unset (then {access_url} refuses). */
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
