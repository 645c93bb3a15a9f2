/**
 * Known sign-ups spread over 90 days and more before them, for the report's tests: the times and
 * answers follow simple rules, so the expected numbers below are counted straight from the list
 * (not through the code under test). The report is made as of NOW (its --now option).
 */
import { BUILDING, LANGS, ROLES, SOURCES, type WaitlistSignup } from '../../../api/contract/index.ts';
import type { Channel } from '../../../api/sidecar/domain/record.ts';

export const NOW = '2026-11-25T12:00:00.000Z';
export const FIRST_DAY = '2026-08-28';
const DAY = 86_400_000;
const at = (day: string, ms: number) => new Date(Date.parse(`${day}T00:00:00.000Z`) + ms).toISOString();
const dayOf = (offset: number) => new Date(Date.parse(`${FIRST_DAY}T00:00:00.000Z`) + offset * DAY).toISOString().slice(0, 10);

export type FixtureSignup = [WaitlistSignup, Channel, string];

/** Day offsets from FIRST_DAY: 120 days before it to the day of NOW (offset 89). */
function build(): FixtureSignup[] {
  const list: FixtureSignup[] = [];
  let k = 0;
  const add = (time: string) => {
    const signup: WaitlistSignup = { email: `person${k}@example.com`, consent: true, lang: LANGS[k % 3 === 0 ? 1 : 0] };
    if (k % 6 !== 5) signup.role = ROLES[k % 6];
    if (k % 7 !== 6) signup.building = BUILDING[k % 7 % 5];
    if (k % 3 !== 2) signup.source = SOURCES[k % 3];
    list.push([signup, k % 2 ? 'form' : 'json', time]);
    k += 1;
  };
  for (let offset = -120; offset <= 89; offset++) {
    const n = offset < -10 ? (offset % 30 === 0 ? 3 : 0) : ((offset * 5) % 4 + 4) % 4 + (offset % 7 === 0 ? 2 : 0);
    for (let j = 0; j < n; j++) add(at(dayOf(offset), (j * 5 + 1) * 3_600_000 + (((offset % 50) + 50) % 50) * 60_000));
  }
  // The edges: the last millisecond of a day and the first of the next; exactly NOW (counted) and
  // a millisecond later (not counted: after the report's time).
  add('2026-11-19T23:59:59.999Z');
  add('2026-11-20T00:00:00.000Z');
  add(NOW);
  add(new Date(Date.parse(NOW) + 1).toISOString());
  // A repeat: keeps its first day, counted by its latest answers.
  const repeated = list.find(([, , time]) => time >= at(dayOf(10), 0))![0].email;
  list.push([{ email: repeated, consent: true, role: 'founder', building: 'research' }, 'json', at(dayOf(60), 1000)]);
  return list;
}

export const FIXTURE: FixtureSignup[] = build();

/** Every address in the fixture (none may appear in any output). */
export const FIXTURE_EMAILS = [...new Set(FIXTURE.map(([signup]) => signup.email))];

/** What each address holds at the end: the first time and the latest answers. */
export function fixtureRecords(): { createdAt: string; lang: string; role?: string; building?: string; source?: string }[] {
  const records = new Map<string, { createdAt: string; lang: string; role?: string; building?: string; source?: string }>();
  for (const [s, , time] of FIXTURE) {
    const old = records.get(s.email);
    records.set(s.email, {
      createdAt: old?.createdAt ?? time,
      lang: s.lang ?? old?.lang ?? 'en',
      role: s.role ?? old?.role,
      building: s.building ?? old?.building,
      source: s.source ?? old?.source,
    });
  }
  return [...records.values()];
}

/** The numbers a 90-day report as of NOW must show, counted from fixtureRecords() day by day. */
export function expectedNumbers() {
  const records = fixtureRecords().filter((r) => r.createdAt <= NOW);
  const dayCount = (offset: number, match: (r: (typeof records)[number]) => boolean = () => true) =>
    records.filter((r) => r.createdAt.slice(0, 10) === dayOf(offset) && match(r)).length;
  const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);
  const sumDays = (from: number, to: number) => range(from, to).reduce((n, offset) => n + dayCount(offset), 0);
  const days = range(0, 89);
  const signups = days.map((offset) => dayCount(offset));
  const before = records.filter((r) => r.createdAt < `${FIRST_DAY}T`).length;
  const cumulative = days.map((offset) => before + sumDays(0, offset));
  const average7 = days.map((offset) => Math.round((sumDays(offset - 6, offset) / 7) * 100) / 100);
  const answersOf = { byLang: [...LANGS], byRole: [...ROLES, 'unanswered'], byBuilding: [...BUILDING, 'unanswered'], bySource: [...SOURCES, 'unanswered'] };
  const field = { byLang: 'lang', byRole: 'role', byBuilding: 'building', bySource: 'source' } as const;
  const perDay = Object.fromEntries(
    Object.entries(answersOf).map(([key, answers]) => [
      key,
      Object.fromEntries(answers.map((a) => [a, days.map((offset) => dayCount(offset, (r) => (r[field[key as keyof typeof field]] ?? 'unanswered') === a))])),
    ]),
  ) as Record<keyof typeof answersOf, Record<string, number[]>>;
  const compare = (length: number) => {
    const current = sumDays(90 - length, 89);
    const previous = sumDays(90 - 2 * length, 89 - length);
    return { current, previous, from: dayOf(90 - length), previousFrom: dayOf(90 - 2 * length), previousTo: dayOf(89 - length) };
  };
  return {
    days: days.map(dayOf),
    signups,
    average7,
    cumulative,
    before,
    all: records.length,
    answersOf,
    perDay,
    week: compare(7),
    month: compare(30),
  };
}
