/**
 * The numbers under each chart, as HTML tables (one per chart, `data-chart` naming it): what a
 * screen reader reads instead of the image, and what an operator copies into a spreadsheet.
 */
import { DIMENSIONS, type DimensionKey, type Report } from './series.ts';
import { count, fixed, percent } from './format.ts';
import { escapeHtml } from '../docs/escape-html.ts';

function table(chart: string, caption: string, head: string[], rows: string[][], foot?: string[]): string {
  const cells = (row: string[], tag: string) => row.map((cell, i) => (i === 0 ? `<th scope="row">${cell}</th>` : `<${tag}>${cell}</${tag}>`)).join('');
  return [
    `<div class="table" role="region" aria-label="${escapeHtml(caption)}" tabindex="0"><table data-chart="${chart}">`,
    `<caption class="visually-hidden">${escapeHtml(caption)}</caption>`,
    `<thead><tr>${head.map((h) => `<th scope="col">${escapeHtml(h)}</th>`).join('')}</tr></thead>`,
    `<tbody>${rows.map((row) => `<tr>${cells(row, 'td')}</tr>`).join('')}</tbody>`,
    foot ? `<tfoot><tr>${cells(foot, 'td')}</tr></tfoot>` : '',
    '</table></div>',
  ].join('');
}

function perDay(report: Report): string {
  const rows = report.days.map((day, i) => [day, count(report.signups[i]), fixed(report.average7[i], 2)]);
  return table('per-day', 'Sign-ups per day and 7-day average', ['Day', 'Sign-ups', '7-day average'], rows, ['Period', count(report.totals.period), '']);
}

function perHour(report: Report): string {
  const rows = report.perHour.hours.map((hour, i) => [`${hour.slice(0, 13).replace('T', ' ')}:00`, count(report.perHour.signups[i])]);
  return table('per-hour', 'Sign-ups per hour, the last 48 hours (UTC)', ['Hour (UTC)', 'Sign-ups'], rows);
}

function cumulative(report: Report): string {
  const rows = report.days.map((day, i) => [day, count(report.cumulative[i])]);
  return table('cumulative', 'Cumulative total per day', ['Day', 'Total'], rows);
}

function byAnswer(report: Report, key: DimensionKey): string {
  const { title, answers, perDay, totals } = report.dimensions[key];
  const rows = report.days.map((day, i) => [day, ...answers.map((a) => count(perDay[a][i]))]);
  const foot = ['Period', ...answers.map((a) => count(totals[a]))];
  return table(`per-day-${key}`, `Sign-ups per day by ${title.toLowerCase()}`, ['Day', ...answers], rows, foot);
}

function shares(report: Report): string {
  const rows = DIMENSIONS.flatMap(({ key }) => {
    const { title, answers, totals, percent: pct } = report.dimensions[key];
    return answers.map((a) => [`${escapeHtml(title)}: ${escapeHtml(a)}`, count(totals[a]), percent(pct[a])]);
  });
  return table('shares', 'Share of each answer', ['Answer', 'Sign-ups', 'Share'], rows);
}

/** The table of each chart, by the chart's id (charts.ts). */
export function reportTables(report: Report): Record<string, string> {
  return {
    'per-day': perDay(report),
    'per-hour': perHour(report),
    cumulative: cumulative(report),
    ...Object.fromEntries(DIMENSIONS.map(({ key }) => [`per-day-${key}`, byAnswer(report, key)])),
    shares: shares(report),
  };
}
