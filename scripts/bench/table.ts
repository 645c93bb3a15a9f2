/** The benches' output: a plain-text table, the first `labels` columns left-aligned, numbers right-aligned. */
export function table(title: string, head: string[], rows: string[][], labels = 2): void {
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i].length)));
  const line = (cells: string[]) => cells.map((c, i) => (i < labels ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ');
  console.log(`\n${title}`);
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
