/**
 * Sign-up as visitors do it: both languages, both forms (hero and call to action), with
 * JavaScript on (JSON request, outcome shown in place) and off (plain form post, 303 to the
 * thanks page). The record is then read from the sidecar's data file.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, test, type OnTestFinishedHandler } from 'vitest';
import { BUILDING, LANGS, ROLES, SOURCES, type Lang } from '../../api/contract/enums.ts';
import { API_PATHS, ENV_PREFIX, PAGE_PATHS, THANKS_PATHS } from '../../api/contract/paths.ts';
import { UI } from '../../site/i18n.ts';
import { launchBrowser } from '../support/browser.ts';
import '../support/stack.ts';
import { field, recordWaitlistPosts, signupForm, thanksTitle } from './support/site.ts';
import { storedRecord, uniqueAddress } from './support/store.ts';

const { baseUrl, dataDir } = inject('stack');
let browser: Browser;
/** Concurrent visitors share two cores: room for waiting, not a speed limit. */
const VISITOR_TIMEOUT_MS = 45_000;

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(() => browser?.close());

/** A fresh context (no cookies, no cache) per visitor, closed when the test ends. */
async function openHome(lang: Lang, javaScriptEnabled: boolean, onFinished: (fn: OnTestFinishedHandler) => void): Promise<Page> {
  const context = await browser.newContext({ javaScriptEnabled });
  onFinished(() => context.close());
  // Fail within the test's time with Playwright's message, instead of a bare test timeout.
  context.setDefaultTimeout(20_000);
  const page = await context.newPage();
  await page.goto(`${baseUrl}${PAGE_PATHS.home[lang]}`);
  return page;
}

// Tests run concurrently (each visitor in its own context, with its own address): most of their
// time is spent waiting on the stack and the browser.
describe('sign-up in the browser', { timeout: VISITOR_TIMEOUT_MS }, () => {
  for (const lang of LANGS) {
    for (const source of SOURCES) {
      test.concurrent(`signup ${lang} ${source}, JavaScript on -> success message in ${lang} on the page; stored with source ${source}, lang ${lang}`, async ({ expect, onTestFinished }) => {
        const page = await openHome(lang, true, onTestFinished);
        const form = signupForm(page, source);
        const email = uniqueAddress(`${lang}-${source}-js`);
        await field(form, 'email').fill(email);
        await field(form, 'role').selectOption(ROLES[0]);
        await field(form, 'building').selectOption(BUILDING[1]);
        await field(form, 'consent').check();
        await form.getByRole('button').click();

        const status = form.getByRole('status');
        await status.and(page.locator('[data-state="success"]')).waitFor();
        expect(await status.textContent()).toBe(UI[lang].messages.success);
        expect(page.url()).toBe(`${baseUrl}${PAGE_PATHS.home[lang]}`);
        // The form is cleared for the next visitor of a shared screen.
        expect(await field(form, 'email').inputValue()).toBe('');

        expect(await storedRecord(dataDir, email)).toMatchObject({
          email: email.toLowerCase(),
          source,
          lang,
          role: ROLES[0],
          building: BUILDING[1],
          consent: { form: source, channel: 'json', lang },
        });
      });

      test.concurrent(`signup ${lang} ${source}, JavaScript off -> lands on ${THANKS_PATHS[lang]} in ${lang}; stored with source ${source}, lang ${lang}`, async ({ expect, onTestFinished }) => {
        const page = await openHome(lang, false, onTestFinished);
        const form = signupForm(page, source);
        const email = uniqueAddress(`${lang}-${source}-nojs`);
        await field(form, 'email').fill(email);
        await field(form, 'consent').check();
        await Promise.all([page.waitForURL(`${baseUrl}${THANKS_PATHS[lang]}`), form.getByRole('button').click()]);

        expect(await page.locator('h1').textContent()).toBe(await thanksTitle(lang));
        expect(await page.locator('html').getAttribute('lang')).toBe(lang);
        const record = await storedRecord(dataDir, email);
        expect(record).toMatchObject({ email: email.toLowerCase(), source, lang, consent: { form: source, channel: 'form', lang } });
        // Unanswered selects send empty values, which mean "no answer", not an error.
        expect(record).not.toHaveProperty('role');
        expect(record).not.toHaveProperty('building');
      });
    }
  }
});

describe('sign-up errors in the browser', { timeout: VISITOR_TIMEOUT_MS }, () => {
  for (const lang of LANGS) {
    const t = UI[lang].messages;

    // The first address fails the browser's own check once the form mirrors the API's rule; the
    // second passes the browser's type=email check (which allows `..`); the API must reject both.
    test.concurrent(`signup ${lang}, JavaScript on: an invalid address -> the e-mail error in ${lang} next to the field; nothing stored`, async ({ expect, onTestFinished }) => {
      for (const email of [`not-an-email.${Date.now()}@x`, `a..b.${Date.now()}@example.com`]) {
        const page = await openHome(lang, true, onTestFinished);
        const form = signupForm(page, 'hero');
        await field(form, 'email').fill(email);
        await field(form, 'consent').check();
        await form.getByRole('button').click();

        const error = await fieldError(form, 'email');
        expect(error, email).toBe(t.invalidEmail);
        expect(await form.getByRole('status').textContent()).toBe(t.checkField);
        expect(await storedRecord(dataDir, email)).toBeUndefined();
      }
    });

    test.concurrent(`signup ${lang}, JavaScript on: consent not given -> the consent error in ${lang} next to the box; nothing sent, nothing stored`, async ({ expect, onTestFinished }) => {
      const page = await openHome(lang, true, onTestFinished);
      const posts = recordWaitlistPosts(page);
      const form = signupForm(page, 'cta');
      const email = uniqueAddress(`${lang}-noconsent-js`);
      await field(form, 'email').fill(email);
      await form.getByRole('button').click();

      expect(await fieldError(form, 'consent')).toBe(t.consentRequired);
      // Fixing the mistake clears the error and the sign-up goes through.
      await field(form, 'consent').check();
      await form.getByRole('button').click();
      await form.getByRole('status').and(page.locator('[data-state="success"]')).waitFor();
      expect(await form.locator('.field-error:visible').count()).toBe(0);
      expect(posts).toHaveLength(1);
      expect(await storedRecord(dataDir, email)).toMatchObject({ source: 'cta', lang });
    });

    test.concurrent(`signup ${lang}, JavaScript on: an invalid address and no consent -> both errors in ${lang} at once, focus on the e-mail field; nothing sent`, async ({ expect, onTestFinished }) => {
      const page = await openHome(lang, true, onTestFinished);
      const posts = recordWaitlistPosts(page);
      const form = signupForm(page, 'hero');
      await field(form, 'email').fill('name@host');
      await form.getByRole('button').click();

      expect(await fieldError(form, 'email')).toBe(t.invalidEmail);
      expect(await fieldError(form, 'consent')).toBe(t.consentRequired);
      expect(await field(form, 'email').evaluate((el) => el === document.activeElement)).toBe(true);
      expect(posts).toEqual([]);
    });

    for (const { problem, fill, invalid } of [
      { problem: 'consent not given', fill: { email: uniqueAddress(`${lang}-noconsent-nojs`), consent: false }, invalid: 'consent' },
      { problem: 'an address without a domain suffix', fill: { email: `no-suffix.${Date.now()}@x`, consent: true }, invalid: 'email' },
    ] as const) {
      test.concurrent(`signup ${lang}, JavaScript off: ${problem} -> the browser blocks the post with its own message; nothing sent, nothing stored`, async ({ expect, onTestFinished }) => {
        const page = await openHome(lang, false, onTestFinished);
        const posts = recordWaitlistPosts(page);
        const form = signupForm(page, 'hero');
        await field(form, 'email').fill(fill.email);
        if (fill.consent) await field(form, 'consent').check();
        await form.getByRole('button').click();

        // Without a script the page cannot word the message: the browser shows its own, in the
        // browser's language, and keeps the visitor on the page.
        const state = await field(form, invalid).evaluate((el: HTMLInputElement) => ({ valid: el.validity.valid, message: el.validationMessage }));
        expect(state.valid).toBe(false);
        expect(state.message).not.toBe('');
        expect(page.url()).toBe(`${baseUrl}${PAGE_PATHS.home[lang]}`);

        // A post, had one been sent, would have left the page before this valid one arrives.
        const other = signupForm(page, 'cta');
        const valid = uniqueAddress(`${lang}-after-block`);
        await field(other, 'email').fill(valid);
        await field(other, 'consent').check();
        await Promise.all([page.waitForURL(`${baseUrl}${THANKS_PATHS[lang]}`), other.getByRole('button').click()]);
        expect(posts.map((post) => new URLSearchParams(post.postData() ?? '').get('email'))).toEqual([valid]);
        expect(await storedRecord(dataDir, fill.email)).toBeUndefined();
      });
    }
  }
});

/** Waits for the field's error, checks it is tied to the field for screen readers, returns its text. */
async function fieldError(form: ReturnType<typeof signupForm>, name: 'email' | 'consent'): Promise<string> {
  const input = field(form, name);
  await input.and(form.locator('[aria-invalid="true"]')).waitFor();
  const errorId = await input.getAttribute('data-error');
  const error = form.locator(`[id="${errorId}"]`);
  expect(await error.isVisible()).toBe(true);
  expect((await input.getAttribute('aria-describedby'))?.split(' ')).toContain(errorId);
  return (await error.textContent()) ?? '';
}

describe('the form and the API agree on addresses', { timeout: VISITOR_TIMEOUT_MS }, () => {
  const valid = ['name@example.com', 'Name.Surname+tag@Example.co.uk', 'a_b-c@sub.example.org', "o'brien@example.ie", 'user@münchen.de', 'x@xn--mnchen-3ya.de'];
  const invalid = [
    'not-an-email@x', 'a..b@example.com', '.a@example.com', 'a.@example.com', 'a@example.c', 'a@-example.com',
    'a b@example.com', '"quoted"@example.com', 'a@example.com.', 'a@localhost', 'a@[127.0.0.1]', 'ä@example.com', 'a@b@example.com',
  ];

  // Without JavaScript an address the browser lets through but the API refuses would end on the
  // API's JSON error; the form's pattern (site/lib/email-pattern.ts) is there to prevent that.
  test.concurrent('signup: Chromium accepts exactly the addresses the API accepts (sandbox, nothing stored)', async ({ expect, onTestFinished }) => {
    const page = await openHome('en', false, onTestFinished);
    const email = field(signupForm(page, 'hero'), 'email');
    const verdicts: string[] = [];
    for (const address of [...valid, ...invalid]) {
      await email.fill(address);
      const browser = await email.evaluate((el: HTMLInputElement) => el.validity.valid);
      const res = await fetch(`${baseUrl}${ENV_PREFIX.sandbox}${API_PATHS.waitlist}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: address, consent: true }),
      });
      await res.body?.cancel();
      verdicts.push(`${address}: browser ${browser ? 'accepts' : 'refuses'}, API ${res.status}`);
      expect(res.status === 200, verdicts.at(-1)).toBe(valid.includes(address));
      expect(browser, verdicts.at(-1)).toBe(valid.includes(address));
    }
  });
});
