/**
 * The consent sentence and its version stay together: the sentence the site shows (the contract's
 * wording with the operator's name filled in) is the one CONSENT_TEXT_VERSION was recorded for,
 * and the built home pages show exactly that sentence.
 */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { CONSENT_OPERATOR_PLACEHOLDER, CONSENT_TEXT_SHA256, CONSENT_TEXT_VERSION } from '../../api/contract/consent.ts';
import { LANGS } from '../../api/contract/enums.ts';
import { PAGE_PATHS } from '../../api/contract/paths.ts';
import { BRAND } from '../../api/contract/brand.ts';
import { UI } from '../../site/i18n.ts';
import { FIELD } from '../../site/lib/signup-fields.ts';
import { htmlFileOf, read } from './support/dist.ts';
import { decode, forms, tags } from './support/html.ts';

/** The sentence per language as the label shows it: [before, link, after]. */
const shown = Object.fromEntries(LANGS.map((lang) => [lang, [UI[lang].form.consentBefore, UI[lang].form.consentLink, UI[lang].form.consentAfter]]));

describe('consent text', () => {
  it('consent: the sentences the site shows are those recorded for CONSENT_TEXT_VERSION (SHA-256 next to it)', () => {
    const sha256 = createHash('sha256').update(JSON.stringify(shown)).digest('hex');
    expect(
      sha256,
      `The consent sentence (api/contract/consent.ts, or the operator name in api/contract/brand.ts) changed, but CONSENT_TEXT_VERSION ` +
        `"${CONSENT_TEXT_VERSION}" still names the old wording, so new records would claim their owners agreed to it. ` +
        `Set CONSENT_TEXT_VERSION to the date the new wording goes live and CONSENT_TEXT_SHA256 to "${sha256}".`,
    ).toBe(CONSENT_TEXT_SHA256);
    expect(CONSENT_TEXT_VERSION).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  });

  it("consent: the operator's name is filled in, no placeholder is left", () => {
    for (const lang of LANGS) {
      const sentence = shown[lang].join('');
      expect(sentence, lang).toContain(BRAND.operator.name);
      expect(sentence, lang).not.toContain(CONSENT_OPERATOR_PLACEHOLDER);
    }
  });

  it('consent: every form of the built home pages shows exactly that sentence, the link text linking the privacy page', () => {
    for (const lang of LANGS) {
      const found = forms(read(htmlFileOf(PAGE_PATHS.home[lang])));
      expect(found.length, lang).toBeGreaterThan(0);
      for (const form of found) {
        const input = tags(form, 'input').find((t) => t.attrs.name === FIELD.consent)!;
        const label = new RegExp(`<label for="${input.attrs.id}">([\\s\\S]*?)<a href="([^"]*)">([\\s\\S]*?)</a>([\\s\\S]*?)</label>`).exec(form);
        expect(label, lang).not.toBeNull();
        expect([label![1], label![3], label![4]].map(decode)).toEqual(shown[lang]);
        expect(label![2]).toBe(PAGE_PATHS.privacy[lang]);
      }
    }
  });
});
