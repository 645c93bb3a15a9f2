/**
 * Text contrast where axe cannot decide it. axe leaves text over a background gradient
 * "incomplete" (needs review); we review it the way a person would: the text colour against every
 * colour stop of the gradient behind it (WCAG 1.4.3: 4.5:1, 3:1 for large text).
 */
import type { NodeResult, Result } from 'axe-core';
import type { Page } from 'playwright-core';

/** WCAG 2.2 "relative luminance" of an opaque `rgb(r, g, b)` colour. */
export function luminance(css: string): number {
  const [r, g, b] = (css.match(/\d+(\.\d+)?/g) ?? []).slice(0, 3).map((v) => {
    const c = Number(v) / 255;
    return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

export function contrastRatio(a: string, b: string): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi + 0.05) / (lo + 0.05);
}

const opaque = (css: string) => /^rgb\(/.test(css) || /^rgba\(.*,\s*1\)$/.test(css);

/** The colour-contrast nodes axe could not decide, split into "over a gradient" and the rest. */
export function undecidedContrast(incomplete: Result[]): { gradient: NodeResult[]; other: NodeResult[] } {
  const nodes = incomplete.filter((r) => r.id === 'color-contrast').flatMap((r) => r.nodes);
  const overGradient = (n: NodeResult) => [...n.any, ...n.all].some((check) => check.data?.messageKey === 'bgGradient');
  return { gradient: nodes.filter(overGradient), other: nodes.filter((n) => !overGradient(n)) };
}

export interface GradientCheck {
  target: string;
  text: string;
  stops: string[];
  /** Lowest ratio against any stop; 0 when a stop is not opaque (undecidable, so failing). */
  ratio: number;
  /** 4.5, or 3 for large text (24 px, or 18.66 px bold). */
  required: number;
}

export async function checkOverGradient(page: Page, nodes: NodeResult[]): Promise<GradientCheck[]> {
  const found = await page.evaluate((targets) => {
    return targets.map((target) => {
      const el = document.querySelector(target)!;
      const style = getComputedStyle(el);
      let host: Element | null = el;
      while (host && !getComputedStyle(host).backgroundImage.includes('gradient')) host = host.parentElement;
      const stops = host ? (getComputedStyle(host).backgroundImage.match(/rgba?\([^)]*\)/g) ?? []) : [];
      const size = parseFloat(style.fontSize);
      const large = size >= 24 || (size >= 18.66 && Number(style.fontWeight) >= 700);
      return { target, text: style.color, stops, large };
    });
  }, nodes.map((n) => String(n.target[0])));
  return found.map(({ target, text, stops, large }) => ({
    target,
    text,
    stops,
    ratio: stops.length > 0 && stops.every(opaque) ? Math.min(...stops.map((stop) => contrastRatio(text, stop))) : 0,
    required: large ? 3 : 4.5,
  }));
}
