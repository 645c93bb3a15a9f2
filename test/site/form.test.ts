import { beforeAll, describe, expect, it } from 'vitest';
import { BUILDING, LANGS, ROLES, SOURCES } from '../../api/contract/enums.ts';
import { EMAIL_MAX_LENGTH } from '../../api/contract/limits.ts';
import { API_PATHS, PAGE_PATHS } from '../../api/contract/paths.ts';
import { WaitlistSignup } from '../../api/contract/schemas.ts';
import { htmlFileOf, read, requireBuild } from './support/dist.ts';
import { forms, tags, type Tag } from './support/html.ts';

beforeAll(() => requireBuild());

const homes = LANGS.map((lang) => ({ lang, html: read(htmlFileOf(PAGE_PATHS.home[lang])) }));

function named(form: string, name: string): Tag[] {
  return tags(form).filter((t) => ['input', 'select', 'textarea', 'button'].includes(t.name) && t.attrs.name === name);
}

function one(form: string, name: string): Tag {
  const found = named(form, name);
  expect(found, name).toHaveLength(1);
  return found[0];
}

function optionValues(form: string, select: Tag): string[] {
  const block = form.slice(select.at, form.indexOf('</select>', select.at));
  return tags(block, 'option').map((o) => o.attrs.value);
}

describe('sign-up form', () => {
  it('form: each home page has two forms, hero then cta, posting form-encoded to the waitlist', () => {
    for (const { lang, html } of homes) {
      const found = forms(html);
      expect(found, lang).toHaveLength(2);
      for (const form of found) {
        const { attrs } = tags(form, 'form')[0];
        expect(attrs.method).toBe('post');
        expect(attrs.action).toBe(API_PATHS.waitlist);
        expect(attrs.enctype).toBe('application/x-www-form-urlencoded');
      }
      // SOURCES lists hero (near the top) before cta (further down), the order on the page.
      expect(found.map((f) => one(f, 'source').attrs.value)).toEqual([...SOURCES]);
    }
  });

  it('form: the field names are exactly those of the contract schema WaitlistSignup', () => {
    for (const { html } of homes) {
      for (const form of forms(html)) {
        const names = new Set(tags(form).filter((t) => ['input', 'select'].includes(t.name)).map((t) => t.attrs.name));
        expect([...names].sort()).toEqual(Object.keys(WaitlistSignup.shape).sort());
      }
    }
  });

  it('form: email is type email, required, maxlength from the contract, autocomplete email, labelled', () => {
    for (const { html } of homes) {
      for (const form of forms(html)) {
        const email = one(form, 'email').attrs;
        expect(email).toMatchObject({ type: 'email', required: '', maxlength: String(EMAIL_MAX_LENGTH), autocomplete: 'email' });
        expect(tags(form, 'label').some((l) => l.attrs.for === email.id)).toBe(true);
      }
    }
  });

  it('form: the e-mail pattern (compiled as browsers do, anchored with the v flag) accepts exactly what the contract schema accepts', () => {
    for (const { html } of homes) {
      for (const form of forms(html)) {
        const pattern = new RegExp(`^(?:${one(form, 'email').attrs.pattern})$`, 'v');
        const samples = ['a@example.com', 'First.Last+tag@sub.example.co.uk', "o'brien@example.ie", 'a@x', 'no-suffix.1@x', 'a@x.c', 'a..b@example.com', '.a@example.com', 'a b@example.com', 'a@-x.com', 'a@example.com.', 'a@[127.0.0.1]'];
        for (const address of samples) expect(pattern.test(address), address).toBe(WaitlistSignup.shape.email.safeParse(address).success);
      }
    }
  });

  it("form: consent is a required, unchecked checkbox with value true whose label links the page language's privacy page", () => {
    for (const { lang, html } of homes) {
      for (const form of forms(html)) {
        const consent = one(form, 'consent').attrs;
        expect(consent).toMatchObject({ type: 'checkbox', value: 'true', required: '' });
        expect(consent).not.toHaveProperty('checked');
        const label = tags(form, 'label').find((l) => l.attrs.for === consent.id)!;
        const labelHtml = form.slice(label.at, form.indexOf('</label>', label.at));
        expect(tags(labelHtml, 'a').map((a) => a.attrs.href)).toEqual([PAGE_PATHS.privacy[lang]]);
      }
    }
  });

  it("form: role and building are optional selects with an empty default and exactly the contract's values", () => {
    for (const { html } of homes) {
      for (const form of forms(html)) {
        for (const [name, values] of [['role', ROLES], ['building', BUILDING]] as const) {
          const select = one(form, name);
          expect(select.name).toBe('select');
          expect(select.attrs).not.toHaveProperty('required');
          expect(optionValues(form, select)).toEqual(['', ...values]);
        }
      }
    }
  });

  it('form: hidden lang is the page language', () => {
    for (const { lang, html } of homes) {
      for (const form of forms(html)) expect(one(form, 'lang').attrs).toMatchObject({ type: 'hidden', value: lang });
    }
  });

  it('form: the honeypot website is hidden from people and screen readers, not focusable and never autofilled', () => {
    for (const { html } of homes) {
      for (const form of forms(html)) {
        const input = one(form, 'website');
        expect(input.attrs).toMatchObject({ tabindex: '-1', autocomplete: 'off' });
        const wrapper = tags(form.slice(0, input.at), 'div').at(-1)!;
        expect(wrapper.attrs).toMatchObject({ hidden: '', 'aria-hidden': 'true' });
      }
    }
  });

  it('form: ids are unique on the page and every visible control has a label', () => {
    for (const { lang, html } of homes) {
      const ids = tags(html).map((t) => t.attrs.id).filter(Boolean);
      expect(new Set(ids).size, lang).toBe(ids.length);
      const labelled = new Set(tags(html, 'label').map((l) => l.attrs.for));
      const controls = tags(html).filter((t) => (t.name === 'input' && t.attrs.type !== 'hidden') || t.name === 'select');
      for (const control of controls) expect(labelled.has(control.attrs.id), control.attrs.name).toBe(true);
    }
  });

  it('form: the enhancement script is one external module and every message it needs is on the form', () => {
    for (const { html } of homes) {
      const scripts = tags(html, 'script');
      expect(scripts).toHaveLength(1);
      expect(scripts[0].attrs.type).toBe('module');
      for (const form of forms(html)) {
        const attrs = tags(form, 'form')[0].attrs;
        for (const key of ['success', 'invalid-email', 'consent-required', 'rate-limited', 'rate-limited-soon', 'error', 'check-field']) {
          expect(attrs[`data-msg-${key}`], key).toBeTruthy();
        }
        expect(attrs['data-msg-rate-limited']).toContain('{seconds}');
        expect(tags(form).filter((t) => t.attrs.role === 'status')).toHaveLength(1);
      }
    }
  });
});
