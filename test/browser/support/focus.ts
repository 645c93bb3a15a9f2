/**
 * Keyboard focus as a sighted keyboard user sees it: which element has focus, and whether its
 * focus indicator is actually drawn (WCAG 2.4.7 Focus Visible) and on screen (2.4.11 Focus Not
 * Obscured: we check the element is inside the viewport).
 */
import type { Page } from 'playwright-core';

export interface Focused {
  /** e.g. `input[name=email]#signup-hero-email`, `a[href=/privacy/]`, `body`. */
  description: string;
  tag: string;
  id: string;
  name: string | null;
  type: string | null;
  /** Outline or box-shadow drawn, not transparent, not zero width. */
  indicator: boolean;
  style: string;
  inViewport: boolean;
}

export function focused(page: Page): Promise<Focused> {
  return page.evaluate(() => {
    const el = document.activeElement ?? document.body;
    const s = getComputedStyle(el);
    const transparent = (color: string) => color === 'transparent' || /rgba\(.*,\s*0\)$/.test(color);
    const outline = s.outlineStyle !== 'none' && parseFloat(s.outlineWidth) > 0 && !transparent(s.outlineColor);
    const shadow = s.boxShadow !== 'none' && s.boxShadow !== '';
    const r = el.getBoundingClientRect();
    const attr = (name: string) => el.getAttribute(name);
    const description =
      el.tagName.toLowerCase() +
      (attr('name') ? `[name=${attr('name')}]` : '') +
      (attr('href') ? `[href=${attr('href')}]` : '') +
      (el.id ? `#${el.id}` : '');
    return {
      description,
      tag: el.tagName.toLowerCase(),
      id: el.id,
      name: attr('name'),
      type: attr('type'),
      indicator: outline || shadow,
      style: `outline: ${s.outlineStyle} ${s.outlineWidth} ${s.outlineColor}; box-shadow: ${s.boxShadow}`,
      inViewport: r.width > 0 && r.height > 0 && r.top >= 0 && r.left >= 0 && r.bottom <= innerHeight && r.right <= innerWidth,
    };
  });
}

/** Presses Tab until `stop` holds for the focused element (at most `limit` presses); returns every stop on the way. */
export async function tabUntil(page: Page, stop: (f: Focused) => boolean, limit = 60): Promise<Focused[]> {
  const seen: Focused[] = [];
  for (let i = 0; i < limit; i++) {
    await page.keyboard.press('Tab');
    const now = await focused(page);
    seen.push(now);
    if (stop(now)) return seen;
  }
  throw new Error(`Tab never reached the wanted element; focus went: ${seen.map((f) => f.description).join(' -> ')}`);
}
