import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';

/**
 * The benches' output: a plain-text table, the first `labels` columns left-aligned, numbers
 * right-aligned, under its title and the machine's load average as it is printed (a run far above
 * the core count says to trust its figures less, its ratios more).
 */
export function table(title: string, head: string[], rows: string[][], labels = 2): void {
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i].length)));
  const line = (cells: string[]) => cells.map((c, i) => (i < labels ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ');
  const load = readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
  console.log(`\n${title}\n(load average ${load} on ${availableParallelism()} cores)`);
  console.log(line(head));
  console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const row of rows) console.log(line(row));
}

/** `a / b` as a ratio such as `1.07×`. */
export function ratio(a: number, b: number): string {
  return `${(a / b).toFixed(2)}×`;
}

export function count(n: number): string {
  return Math.round(n).toLocaleString('en-US');
}

export function ms(n: number): string {
  return n.toFixed(n < 10 ? 2 : 1);
}
