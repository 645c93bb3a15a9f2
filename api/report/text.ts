/**
 * The report for a terminal: the same numbers as the html format, each series with its period
 * total, share and a sparkline of its days (one mark per day, or per few days when the period is
 * longer than SPARK_WIDTH days: the legend line says how many).
 */
import { change, count, fixed, moment, percent, span } from './format.ts';
import { DIMENSIONS, type Comparison, type Report } from './series.ts';

const MARKS = '▁▂▃▄▅▆▇█';
const SPARK_WIDTH = 60;
const LABEL = 30;

/** One mark per `per` days (sums; the first mark may hold fewer days), scaled to the series' largest. */
export function sparkline(values: number[], per: number, mean = false): string {
  const sums: number[] = [];
  for (let end = values.length; end > 0; end -= per) {
    const part = values.slice(Math.max(0, end - per), end);
    sums.unshift(part.reduce((a, b) => a + b, 0) / (mean ? part.length : 1));
  }
  const max = Math.max(...sums, 0);
  return sums.map((v) => MARKS[max === 0 ? 0 : Math.round((v / max) * (MARKS.length - 1))]).join('');
}

const row = (label: string, ...cells: string[]) => `${label.padEnd(LABEL)}${cells.map((c) => c.padStart(9)).join(' ')}`.trimEnd();

function compared(label: string, c: Comparison): string[] {
  return [
    row(label, count(c.current.signups)) + `   ${span(c.current.from, c.current.to)}`,
    `${' '.repeat(LABEL + 9)}   ${change(c)} against ${count(c.previous.signups)} (${span(c.previous.from, c.previous.to)})`,
  ];
}

export function reportText(report: Report): string {
  const { from, to, days, now } = report.period;
  const per = Math.ceil(days / SPARK_WIDTH);
  const spark = (values: number[], mean = false) => `  ${sparkline(values, per, mean)}`;
  const lines = [
    `Waitlist report: ${span(from, to)} (${days} ${days === 1 ? 'day' : 'days'}, UTC), as of ${moment(now)}`,
    'First sign-ups only, counted by the latest answers. Aggregates only: no address or other personal data.',
    '',
    row('Sign-ups in total', count(report.totals.all)) + `   up to ${moment(now)}`,
    row('In this period', count(report.totals.period)),
    ...compared('Last 7 days', report.comparisons.week),
    ...compared('Last 30 days', report.comparisons.month),
    row('At throwaway domains', count(report.throwaway.members), percent(report.throwaway.percent)) + '   of all members',
    '',
    row('Per hour, the last 48 hours', count(report.perHour.signups.reduce((a, b) => a + b, 0)), '') + `  ${sparkline(report.perHour.signups, 1)}`,
    '',
    row(`Per day (${per === 1 ? 'a mark a day' : `a mark per ${per} days`})`, 'period', 'share'),
    row('Sign-ups', count(report.totals.period), '') + spark(report.signups),
    row('7-day average, last day', fixed(report.average7.at(-1) ?? 0, 2), '') + spark(report.average7, true),
    row('Cumulative total', count(report.totals.all), '') + spark(report.cumulative, true),
  ];
  for (const { key } of DIMENSIONS) {
    const { title, answers, perDay, totals, percent: pct } = report.dimensions[key];
    lines.push('', title);
    for (const answer of answers) lines.push(row(`  ${answer}`, count(totals[answer]), percent(pct[answer])) + spark(perDay[answer]));
  }
  return `${lines.join('\n')}\n`;
}
