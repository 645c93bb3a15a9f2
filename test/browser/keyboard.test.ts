/**
 * Keyboard-only use (WCAG 2.1.1 Keyboard, 2.4.3 Focus Order, 2.4.7 Focus Visible) and the
 * honeypot, which must stay out of sight, out of the Tab order and out of the accessibility tree.
 */
import type { Page } from 'playwright-core';
import { describe, expect, inject, test } from 'vitest';
import { LANGS, SOURCES, type Lang } from '../../api/contract/enums.ts';
import { PAGE_PATHS } from '../../api/contract/paths.ts';
import { UI } from '../../site/i18n.ts';
import { FIELD } from '../../site/lib/signup-fields.ts';
import '../support/stack.ts';
import { focused, tabUntil, type Focused } from './support/focus.ts';
import { pagePerTest } from './support/page-per-test.ts';
import { field, signupForm } from './support/site.ts';
import { storedRecord, uniqueAddress } from './support/store.ts';

const { baseUrl, dataDir } = inject('stack');
const newPage = pagePerTest();

async function openHome(lang: Lang): Promise<Page> {
  const page = await newPage();
  await page.goto(`${baseUrl}${PAGE_PATHS.home[lang]}`);
  return page;
}

function expectVisibleFocus(stops: Focused[]): void {
  for (const stop of stops) {
    expect(stop.indicator, `${stop.description} has no visible focus indicator (${stop.style})`).toBe(true);
    expect(stop.inViewport, `${stop.description} has focus but is not on screen`).toBe(true);
    expect(stop.name, 'the honeypot got focus').not.toBe(FIELD.website);
  }
}

describe('keyboard', () => {
  for (const lang of LANGS) {
    test(`keyboard ${lang}: from page load, Tab reaches the hero e-mail field; typing, Tab, Space and Enter sign up; focus always visible`, async () => {
      const page = await openHome(lang);
      const form = signupForm(page, 'hero');
      const emailId = await field(form, 'email').getAttribute('id');
      const consentId = await field(form, 'consent').getAttribute('id');
      const email = uniqueAddress(`${lang}-keyboard`);

      const toEmail = await tabUntil(page, (f) => f.id === emailId);
      expectVisibleFocus(toEmail);
      await page.keyboard.type(email);
      const toConsent = await tabUntil(page, (f) => f.id === consentId, 5);
      expectVisibleFocus(toConsent);
      await page.keyboard.press('Space');
      expect(await field(form, 'consent').isChecked()).toBe(true);
      const toButton = await tabUntil(page, (f) => f.tag === 'button', 5);
      expectVisibleFocus(toButton);
      await page.keyboard.press('Enter');

      await form.getByRole('status').and(page.locator('[data-state="success"]')).waitFor();
      expect(await form.getByRole('status').textContent()).toBe(UI[lang].messages.success);
      expect(await storedRecord(dataDir, email)).toMatchObject({ source: 'hero', lang });
    });
  }

  test('keyboard: every Tab stop of the home page shows its focus, and the walk ends back at the start', async () => {
    const page = await openHome('en');
    const first = await tabUntil(page, () => true);
    const walk = await tabUntil(page, (f) => f.description === first[0].description, 80);
    // Past the last stop focus leaves the document (body) before it comes round again.
    expectVisibleFocus([...first, ...walk].filter((f) => f.tag !== 'body'));
    // Both forms are in the walk: every field of each is reachable.
    for (const source of SOURCES) {
      const id = await field(signupForm(page, source), 'email').getAttribute('id');
      expect(walk.some((f) => f.id === id), `${source} e-mail field`).toBe(true);
    }
  });
});

describe('honeypot', () => {
  test('honeypot: the website field is not visible, has no box, and is not in the browser accessibility tree', async () => {
    const page = await openHome('en');
    const cdp = await page.context().newCDPSession(page);
    const { root } = await cdp.send('DOM.getDocument', { depth: -1 });
    const { nodeIds } = await cdp.send('DOM.querySelectorAll', { nodeId: root.nodeId, selector: `[name="${FIELD.website}"]` });
    expect(nodeIds).toHaveLength(SOURCES.length);

    for (const source of SOURCES) {
      const honeypot = field(signupForm(page, source), 'website');
      expect(await honeypot.isVisible()).toBe(false);
      expect(await honeypot.boundingBox()).toBeNull();
    }
    // The tree Chromium hands to screen readers: the fields are ignored, and no node carries the
    // honeypot's label.
    for (const nodeId of nodeIds) {
      const { nodes } = await cdp.send('Accessibility.getPartialAXTree', { nodeId, fetchRelatives: false });
      expect(nodes[0].ignored).toBe(true);
    }
    const { nodes } = await cdp.send('Accessibility.getFullAXTree');
    const announced = nodes.filter((n) => !n.ignored).map((n) => String(n.name?.value ?? ''));
    expect(announced.filter((name) => name.includes(UI.en.form.honeypot))).toEqual([]);
    expect(announced).toContain(UI.en.form.email);
  });
});
