/**
 * Cumulative layout shift while a page loads, from the Layout Instability API. The observer is
 * registered before any page script runs (an init script) and with `buffered: true`, so shifts
 * that happen before it is attached are reported too.
 */
import type { Page } from 'playwright-core';

interface ShiftWindow {
  __layoutShift: { supported: boolean; total: number; sources: string[] };
}

interface LayoutShiftEntry extends PerformanceEntry {
  value: number;
  hadRecentInput: boolean;
  sources?: { node?: Node | null }[];
}

export async function watchLayoutShift(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const state = { supported: PerformanceObserver.supportedEntryTypes.includes('layout-shift'), total: 0, sources: [] as string[] };
    (window as unknown as ShiftWindow).__layoutShift = state;
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries() as LayoutShiftEntry[]) {
        if (entry.hadRecentInput) continue;
        state.total += entry.value;
        for (const source of entry.sources ?? []) {
          const node = source.node;
          state.sources.push(node instanceof Element ? `${node.tagName.toLowerCase()}.${node.className}` : String(node?.nodeName));
        }
      }
    }).observe({ type: 'layout-shift', buffered: true });
  });
}

/** After the load event: waits for web fonts and two frames, then reads the total. */
export function layoutShiftAfterLoad(page: Page): Promise<ShiftWindow['__layoutShift']> {
  return page.evaluate(async () => {
    await document.fonts.ready;
    await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
    return (window as unknown as ShiftWindow).__layoutShift;
  });
}
