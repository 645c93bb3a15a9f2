/**
 * The report's charts, built from the Report (series.ts): each one series drawn twice, as a
 * Vega-Lite spec and as the table of its numbers under it (html.ts renders both). Colours: text, axes and
 * grid are `currentColor`, so they follow the page's light or dark scheme; the series colours keep a
 * 3:1 contrast against both the light and the dark background (WCAG 1.4.11). Marks and guides are
 * hidden from assistive technology: each chart is one image whose numbers are in a table below it.
 */
import type { Config, TopLevelSpec } from 'vega-lite';
import { count, fixed, percent } from './format.ts';
import { DIMENSIONS, type DimensionKey, type Report } from './series.ts';

/** Blue, orange, green, purple, pink, cyan: ≥ 3:1 on white and on #111827. */
const SERIES_COLOURS = ['#3b82f6', '#ea580c', '#16a34a', '#a855f7', '#db2777', '#0891b2'];
/** Unanswered is grey, whichever question: ≥ 3:1 on both backgrounds too. */
const UNANSWERED_COLOUR = '#808080';

const WIDTH = 640;
const HEIGHT = 220;

export interface Chart {
  id: string;
  title: string;
  /** One sentence for screen readers: what the image shows. */
  description: string;
  spec: TopLevelSpec;
  /**
   * The numbers of the chart as text cells: what a screen reader reads instead of the image, and
   * what an operator copies into a spreadsheet. The first cell of each row is the row's header.
   */
  table: { caption: string; head: string[]; rows: string[][]; foot?: string[] };
}

const CONFIG: Config = {
  aria: false,
  mark: { aria: false },
  background: 'transparent',
  font: 'system-ui, -apple-system, "Segoe UI", Roboto, sans-serif',
  view: { stroke: null },
  axis: {
    labelColor: 'currentColor',
    titleColor: 'currentColor',
    domainColor: 'currentColor',
    tickColor: 'currentColor',
    gridColor: 'currentColor',
    gridOpacity: 0.15,
    labelFontSize: 11,
    titleFontSize: 12,
    titleFontWeight: 'normal',
  },
  legend: { labelColor: 'currentColor', titleColor: 'currentColor', labelFontSize: 12, titleFontSize: 12, orient: 'bottom', direction: 'horizontal' },
  title: { color: 'currentColor' },
  text: { fill: 'currentColor' },
};

const dayAxis = { field: 'day', type: 'temporal', title: null, axis: { format: '%d %b', labelOverlap: true } } as const;

function colours(answers: string[]): string[] {
  let next = 0;
  return answers.map((a) => (a === 'unanswered' ? UNANSWERED_COLOUR : SERIES_COLOURS[next++ % SERIES_COLOURS.length]));
}

function perDay(report: Report): Chart {
  const values = report.days.flatMap((day, i) => [
    { day, series: 'Sign-ups', value: report.signups[i] },
    { day, series: '7-day average', value: report.average7[i] },
  ]);
  const color = { field: 'series', type: 'nominal', title: null, scale: { domain: ['Sign-ups', '7-day average'], range: [SERIES_COLOURS[0], SERIES_COLOURS[1]] } } as const;
  return {
    id: 'per-day',
    title: 'Sign-ups per day, with the 7-day average',
    description: `Bars: first sign-ups on each day from ${report.period.from} to ${report.period.to}; line: the average of that day and the 6 before.`,
    spec: {
      width: WIDTH, height: HEIGHT, config: CONFIG, data: { values },
      encoding: { x: dayAxis, y: { field: 'value', type: 'quantitative', title: 'sign-ups' }, color },
      layer: [
        { transform: [{ filter: "datum.series === 'Sign-ups'" }], mark: { type: 'bar', opacity: 0.75 } },
        { transform: [{ filter: "datum.series === '7-day average'" }], mark: { type: 'line', strokeWidth: 2.5 } },
      ],
    },
    table: {
      caption: 'Sign-ups per day and 7-day average',
      head: ['Day', 'Sign-ups', '7-day average'],
      rows: report.days.map((day, i) => [day, count(report.signups[i]), fixed(report.average7[i], 2)]),
      foot: ['Period', count(report.totals.period), ''],
    },
  };
}

function cumulative(report: Report): Chart {
  const values = report.days.map((day, i) => ({ day, total: report.cumulative[i] }));
  return {
    id: 'cumulative',
    title: 'Cumulative total',
    description: `Line: all sign-ups up to each day, from ${report.cumulative[0] ?? 0} on ${report.period.from} to ${report.totals.all} on ${report.period.to}.`,
    spec: {
      width: WIDTH, height: HEIGHT, config: CONFIG, data: { values },
      mark: { type: 'area', line: { color: SERIES_COLOURS[0], strokeWidth: 2 }, color: SERIES_COLOURS[0], opacity: 0.25 },
      encoding: { x: dayAxis, y: { field: 'total', type: 'quantitative', title: 'sign-ups in total' } },
    },
    table: { caption: 'Cumulative total per day', head: ['Day', 'Total'], rows: report.days.map((day, i) => [day, count(report.cumulative[i])]) },
  };
}

function byAnswer(report: Report, key: DimensionKey): Chart {
  const dimension = report.dimensions[key];
  const values = report.days.flatMap((day, i) => dimension.answers.map((answer, order) => ({ day, answer, order, n: dimension.perDay[answer][i] })));
  return {
    id: `per-day-${key}`,
    title: `Sign-ups per day by ${dimension.title.toLowerCase()}`,
    description: `Stacked bars: first sign-ups on each day, split by ${dimension.title.toLowerCase()} (${dimension.answers.join(', ')}).`,
    spec: {
      width: WIDTH, height: HEIGHT, config: CONFIG, data: { values },
      mark: 'bar',
      encoding: {
        x: dayAxis,
        y: { field: 'n', type: 'quantitative', stack: 'zero', title: 'sign-ups' },
        color: { field: 'answer', type: 'nominal', title: dimension.title, scale: { domain: dimension.answers, range: colours(dimension.answers) } },
        order: { field: 'order', type: 'quantitative' },
      },
    },
    table: {
      caption: `Sign-ups per day by ${dimension.title.toLowerCase()}`,
      head: ['Day', ...dimension.answers],
      rows: report.days.map((day, i) => [day, ...dimension.answers.map((a) => count(dimension.perDay[a][i]))]),
      foot: ['Period', ...dimension.answers.map((a) => count(dimension.totals[a]))],
    },
  };
}

function shares(report: Report): Chart {
  return {
    id: 'shares',
    title: 'Share of each answer',
    description: `Horizontal bars: the percentage of the ${report.totals.period} sign-ups from ${report.period.from} to ${report.period.to} that gave each answer, one group per question.`,
    spec: {
      config: CONFIG,
      vconcat: DIMENSIONS.map(({ key }) => {
        const dimension = report.dimensions[key];
        const values = dimension.answers.map((answer) => ({ answer, percent: dimension.percent[answer], label: `${dimension.percent[answer]} %` }));
        const y = { field: 'answer', type: 'nominal', sort: dimension.answers, title: null } as const;
        return {
          title: { text: dimension.title, anchor: 'start', fontSize: 13 },
          width: WIDTH - 120,
          height: { step: 18 },
          data: { values },
          encoding: { y, x: { field: 'percent', type: 'quantitative', scale: { domain: [0, 100] }, title: 'percent of sign-ups' } },
          layer: [
            { mark: 'bar', encoding: { color: { field: 'answer', type: 'nominal', legend: null, scale: { domain: dimension.answers, range: colours(dimension.answers) } } } },
            { mark: { type: 'text', align: 'left', dx: 4 }, encoding: { text: { field: 'label' } } },
          ],
        };
      }),
      resolve: { scale: { color: 'independent', y: 'independent' } },
    } as TopLevelSpec,
    table: {
      caption: 'Share of each answer',
      head: ['Answer', 'Sign-ups', 'Share'],
      rows: DIMENSIONS.flatMap(({ key }) => {
        const { title, answers, totals, percent: pct } = report.dimensions[key];
        return answers.map((a) => [`${title}: ${a}`, count(totals[a]), percent(pct[a])]);
      }),
    },
  };
}

function perHour(report: Report): Chart {
  const values = report.perHour.hours.map((hour, i) => ({ hour, signups: report.perHour.signups[i] }));
  return {
    id: 'per-hour',
    title: 'Sign-ups per hour, the last 48 hours',
    description: `Bars: first sign-ups in each UTC hour of the 48 up to ${report.period.now}; a burst in one hour stands out.`,
    spec: {
      width: WIDTH, height: HEIGHT, config: CONFIG, data: { values },
      mark: { type: 'bar', color: SERIES_COLOURS[0] },
      encoding: {
        x: { field: 'hour', type: 'temporal', title: null, axis: { format: '%d %b %H:00', labelOverlap: true } },
        y: { field: 'signups', type: 'quantitative', title: 'sign-ups' },
      },
    },
    table: {
      caption: 'Sign-ups per hour, the last 48 hours (UTC)',
      head: ['Hour (UTC)', 'Sign-ups'],
      rows: report.perHour.hours.map((hour, i) => [`${hour.slice(0, 13).replace('T', ' ')}:00`, count(report.perHour.signups[i])]),
    },
  };
}

/** Every chart of the report, in the order the page shows them. */
export function reportCharts(report: Report): Chart[] {
  return [perDay(report), perHour(report), cumulative(report), ...DIMENSIONS.map(({ key }) => byAnswer(report, key)), shares(report)];
}
