/**
 * The report as one self-contained HTML page: inline style, charts as inline SVG drawn now
 * (renderSvg), no script, font or image from anywhere; a Content-Security-Policy that forbids every
 * fetch makes that hold even if a later change forgot it. Each chart has its title, a text
 * alternative and its numbers in a table below it.
 */
import { parse, View } from 'vega';
import { compile, type TopLevelSpec } from 'vega-lite';
import { reportCharts, type Chart } from './charts.ts';
import { change, count, moment, percent, span } from './format.ts';
import { REPORT_CSS } from './html-style.ts';
import { escapeHtml } from '../docs/escape-html.ts';
import type { Comparison, Report } from './series.ts';

/** Nothing may be loaded: styles are inline, images are inline SVG. */
const CSP = "default-src 'none'; style-src 'unsafe-inline'";

/**
 * A Vega-Lite spec drawn as SVG text in Node: compiled to Vega, run headless (renderer 'none': no
 * canvas, no DOM, no native module) and serialised. Text widths are estimated, not measured.
 */
async function renderSvg(spec: TopLevelSpec): Promise<string> {
  const view = new View(parse(compile(spec).spec), { renderer: 'none' });
  try {
    return await view.toSVG();
  } finally {
    view.finalize();
  }
}

/** A chart's numbers as a table (`data-chart` naming the chart), in a region that scrolls on a narrow screen. */
function table(chart: string, { caption, head, rows, foot }: Chart['table']): string {
  const cells = (row: string[]) => row.map((cell, i) => (i === 0 ? `<th scope="row">${escapeHtml(cell)}</th>` : `<td>${escapeHtml(cell)}</td>`)).join('');
  return [
    `<div class="table" role="region" aria-label="${escapeHtml(caption)}" tabindex="0"><table data-chart="${chart}">`,
    `<caption class="visually-hidden">${escapeHtml(caption)}</caption>`,
    `<thead><tr>${head.map((h) => `<th scope="col">${escapeHtml(h)}</th>`).join('')}</tr></thead>`,
    `<tbody>${rows.map((row) => `<tr>${cells(row)}</tr>`).join('')}</tbody>`,
    foot ? `<tfoot><tr>${cells(foot)}</tr></tfoot>` : '',
    '</table></div>',
  ].join('');
}

function figure(label: string, value: string, detail: string): string {
  return `<div><dt>${escapeHtml(label)}</dt><dd>${value}<small>${escapeHtml(detail)}</small></dd></div>`;
}

function compared(label: string, c: Comparison): string {
  const detail = `${span(c.current.from, c.current.to)}: ${change(c)} against ${count(c.previous.signups)} (${span(c.previous.from, c.previous.to)})`;
  return figure(label, count(c.current.signups), detail);
}

function glance(report: Report): string {
  const { week, month } = report.comparisons;
  return [
    '<section aria-labelledby="glance"><h2 id="glance">At a glance</h2><dl class="numbers" data-chart="glance">',
    figure('Sign-ups in total', count(report.totals.all), `up to ${moment(report.period.now)}`),
    figure('In this period', count(report.totals.period), span(report.period.from, report.period.to)),
    compared('Last 7 days', week),
    compared('Last 30 days', month),
    figure('At throwaway domains', count(report.throwaway.members), `${percent(report.throwaway.percent)} of all members (a list of throwaway domains; no DNS)`),
    '</dl></section>',
  ].join('');
}

export async function reportHtml(report: Report): Promise<string> {
  const sections: string[] = [];
  for (const chart of reportCharts(report)) {
    const svg = await renderSvg(chart.spec);
    sections.push(
      `<section aria-labelledby="${chart.id}"><h2 id="${chart.id}">${escapeHtml(chart.title)}</h2>` +
        `<div class="chart" role="img" aria-label="${escapeHtml(chart.description)}">${svg}</div>` +
        `<details><summary>The numbers</summary>${table(chart.id, chart.table)}</details></section>`,
    );
  }
  const { from, to, days, now } = report.period;
  const title = `Waitlist report, ${span(from, to)}`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="${CSP}">
<meta name="color-scheme" content="light dark">
<title>${escapeHtml(title)}</title>
<style>${REPORT_CSS}</style>
</head>
<body>
<main>
<h1>Waitlist report</h1>
<p class="meta">${escapeHtml(`${span(from, to)} (${days} ${days === 1 ? 'day' : 'days'}, UTC), as of ${moment(now)}. First sign-ups only (a repeat keeps its first day), counted by the latest answers. Aggregates only: no address or other personal data.`)}</p>
${glance(report)}
${sections.join('\n')}
</main>
</body>
</html>
`;
}
