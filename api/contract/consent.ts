/**
 * The consent sentence next to the sign-up forms, and its version, together: every record keeps the
 * version its owner agreed to (GDPR Art. 7(1)). How to change it: docs/site.md, "The sign-up form".
 */
import type { Lang } from './enums.ts';

/** Stands for the operator's legal name (api/contract/brand.ts), which the site fills in. */
export const CONSENT_OPERATOR_PLACEHOLDER = '{operator}';

/** The sentence as the label shows it: `before`, then `link` (to the privacy page), then `after`. */
export const CONSENT_TEXT = {
  en: {
    before: 'I agree that {operator} stores my e-mail address to tell me about early access, as described in the ',
    link: 'privacy notice',
    after: '. I can withdraw at any time.',
  },
  de: {
    before: 'Ich willige ein, dass die {operator} meine E-Mail-Adresse speichert, um mich über den frühen Zugang zu informieren, wie in der ',
    link: 'Datenschutzerklärung',
    after: ' beschrieben. Ich kann jederzeit widerrufen.',
  },
} satisfies Record<Lang, { before: string; link: string; after: string }>;

/** Version of CONSENT_TEXT (a date); stored in every record's consent evidence. */
export const CONSENT_TEXT_VERSION = '2026-11-01';

/**
 * SHA-256 (hex) of the sentences of CONSENT_TEXT_VERSION as the site shows them, operator name
 * filled in: of `JSON.stringify` of `{en: [before, link, after], de: [...]}` in LANGS order.
 */
export const CONSENT_TEXT_SHA256 = '99d954630cc450a2f2a225689cc683be0c63ea013138c7ba90f3b18e8fb94a00';
