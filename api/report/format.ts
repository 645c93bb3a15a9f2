/** How the report writes its numbers, the same in the html and the text formats. */
import type { Comparison } from './series.ts';

/** A count with thousands separators: 1,234. */
export const count = (n: number): string => n.toLocaleString('en');

/** A number with exactly `decimals` decimals: 2.14. */
export const fixed = (n: number, decimals: number): string =>
  n.toLocaleString('en', { minimumFractionDigits: decimals, maximumFractionDigits: decimals });

/** A percentage: 72.9 %. */
export const percent = (n: number): string => `${fixed(n, 1)} %`;

/** A change with its sign: +12 (+40.0 %), −3 (−10.0 %), 0 (0.0 %); no percentage after zero sign-ups. */
export function change(comparison: Comparison): string {
  const sign = (n: number) => (n > 0 ? '+' : n < 0 ? '−' : '');
  const abs = Math.abs(comparison.change);
  const pct = comparison.changePercent;
  return `${sign(comparison.change)}${count(abs)}${pct === null ? '' : ` (${sign(pct)}${percent(Math.abs(pct))})`}`;
}

/** "2026-11-19 to 2026-11-25". */
export const span = (from: string, to: string): string => `${from} to ${to}`;

/** A moment for people: "2026-11-25 12:00 UTC" (seconds shown only when not zero). */
export function moment(iso: string): string {
  const [day, time] = iso.split('T');
  const [hh, mm, ss] = time.split(':');
  const seconds = ss.startsWith('00.000') ? '' : `:${ss.replace(/\.000Z$|Z$/, '')}`;
  return `${day} ${hh}:${mm}${seconds} UTC`;
}
