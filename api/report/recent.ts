/**
 * What the report tells of the members' addresses without showing one: how many are at throwaway
 * domains (from the list, offline: the report never asks DNS), and first sign-ups per hour over the
 * last 48 hours, where a bot's burst shows beside a launch post's wave. Counted from the records
 * as they stream past; `now` and the list are passed in.
 */
import { domainOf, isDisposable } from '../deliverability/verdict.ts';
import type { WaitlistRecord } from '../sidecar/domain/record.ts';

export const RECENT_HOURS = 48;
const HOUR_MS = 3_600_000;

export interface Recent {
  /** Members up to `now` at a throwaway domain, and their percentage of all members (one decimal). */
  throwaway: { members: number; percent: number };
  /** The start of each UTC hour (ISO), oldest first; the last is the hour of `now`, counted up to `now`. */
  hours: string[];
  /** First sign-ups in each of those hours. */
  perHour: number[];
}

export async function recentOf(records: AsyncIterable<WaitlistRecord>, now: number, list: ReadonlySet<string>): Promise<Recent> {
  const first = (Math.floor(now / HOUR_MS) - RECENT_HOURS + 1) * HOUR_MS;
  const perHour = new Array<number>(RECENT_HOURS).fill(0);
  let members = 0;
  let throwaway = 0;
  for await (const record of records) {
    const created = Date.parse(record.createdAt);
    if (created > now) continue;
    members += 1;
    if (isDisposable(domainOf(record.email), list)) throwaway += 1;
    if (created >= first) perHour[Math.floor((created - first) / HOUR_MS)] += 1;
  }
  return {
    throwaway: { members: throwaway, percent: members ? Math.round((throwaway / members) * 1000) / 10 : 0 },
    hours: perHour.map((_, i) => new Date(first + i * HOUR_MS).toISOString()),
    perHour,
  };
}
