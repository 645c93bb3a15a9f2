/**
 * The placeholders of message templates, written `{name}` as in page Markdown (site/lib/placeholders.ts).
 * A small fixed set: an unknown name, or a template without the ones every message must carry,
 * fails `npm run build` and `waitlist invite` with the file and line.
 */
export const MESSAGE_PLACEHOLDERS = {
  product: 'the product name',
  operator_name: "the operator's name (as on the imprint)",
  access_url: 'the link to the product (INVITE_URL)',
  joined_on: 'the date the member first joined the waitlist, written in their language',
  privacy_url: 'the privacy notice in the member\'s language',
  leave_address: 'the address to write to for leaving the list (the operator\'s)',
} as const;

export type MessagePlaceholder = keyof typeof MESSAGE_PLACEHOLDERS;
export type MessageValues = Record<MessagePlaceholder, string>;

/**
 * Each message says why the reader gets it (they joined on a date), where the privacy notice in
 * their language is, and how to leave the list.
 */
export const REQUIRED_PLACEHOLDERS: readonly MessagePlaceholder[] = ['joined_on', 'privacy_url', 'leave_address'];

/** `{name}`-like text: a known name is a placeholder; any other is a mistake to report (`{accessUrl}`, `{{x}}`). */
export const PLACEHOLDER = /(?<!\$)\{([A-Za-z0-9_.-]+)\}/g;

export function isMessagePlaceholder(name: string): name is MessagePlaceholder {
  return Object.hasOwn(MESSAGE_PLACEHOLDERS, name);
}

/** Replaces every `{name}` by its value, passed through `escape` (HTML) or as is (text). */
export function fillMessage(text: string, values: MessageValues, escape: (value: string) => string = (v) => v): string {
  return text.replace(PLACEHOLDER, (whole, name: string) => (isMessagePlaceholder(name) ? escape(values[name]) : whole));
}
