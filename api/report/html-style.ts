/**
 * The report page's one stylesheet, inline (the file opens from disk with no network): light and
 * dark schemes from prefers-color-scheme, charts that shrink to the screen, A4 when printed.
 * The charts' text and axes use currentColor, so they take the scheme's text colour.
 */
export const REPORT_CSS = `
:root { color-scheme: light dark; --bg: #ffffff; --fg: #1f2937; --muted: #4b5563; --line: #d1d5db; --panel: #f3f4f6; }
@media (prefers-color-scheme: dark) {
  :root { --bg: #111827; --fg: #e5e7eb; --muted: #9ca3af; --line: #374151; --panel: #1f2937; }
}
* { box-sizing: border-box; }
body { margin: 0; background: var(--bg); color: var(--fg); font: 16px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; }
main { max-width: 52rem; margin: 0 auto; padding: 1.5rem 1rem 3rem; }
h1 { font-size: 1.75rem; margin: 0 0 .25rem; }
h2 { font-size: 1.25rem; margin: 0 0 .75rem; }
p.meta { color: var(--muted); margin: 0 0 1.5rem; }
section { margin: 0 0 2rem; padding: 1rem; border: 1px solid var(--line); border-radius: .5rem; break-inside: avoid; page-break-inside: avoid; }
dl.numbers { display: grid; grid-template-columns: repeat(2, minmax(0, 1fr)); gap: .75rem; margin: 0; }
@media (max-width: 36rem) { dl.numbers { grid-template-columns: minmax(0, 1fr); } }
dl.numbers div { background: var(--panel); border-radius: .375rem; padding: .75rem; }
dt { color: var(--muted); font-size: .875rem; }
dd { margin: 0; font-size: 1.5rem; font-weight: 600; font-variant-numeric: tabular-nums; }
dd small { display: block; font-size: .875rem; font-weight: normal; color: var(--muted); }
.chart { color: var(--fg); }
.chart svg { display: block; max-width: 100%; height: auto; }
details { margin-top: .75rem; }
summary { cursor: pointer; }
.table { overflow-x: auto; max-width: 100%; }
table { border-collapse: collapse; font-variant-numeric: tabular-nums; font-size: .875rem; margin-top: .5rem; }
th, td { padding: .2rem .6rem; border-bottom: 1px solid var(--line); text-align: right; white-space: nowrap; }
th:first-child, td:first-child { text-align: left; }
thead th { border-bottom: 2px solid var(--line); }
.visually-hidden { position: absolute; width: 1px; height: 1px; overflow: hidden; clip-path: inset(50%); white-space: nowrap; }
:focus-visible { outline: 3px solid #3b82f6; outline-offset: 2px; }
@media (max-width: 30rem) { main { padding: 1rem .5rem 2rem; } section { padding: .75rem .5rem; } }
@page { size: A4; margin: 12mm; }
@media print {
  :root { --bg: #ffffff; --fg: #000000; --muted: #374151; --line: #9ca3af; --panel: #f3f4f6; }
  body { font-size: 11pt; }
  main { max-width: none; padding: 0; }
  section { border: none; padding: 0; margin: 0 0 8mm; }
  details:not([open]) { display: none; }
}
`;
