/**
 * What the report tells of the members' addresses without showing one: how many are at throwaway
 * domains (from the store's members per domain and the list, offline: the report never asks DNS),
 * and first sign-ups per hour over the last 48 hours, where a bot's burst shows beside a launch
 * post's wave (from the records since then only). The store, `now` and the list are passed in.
 */
import { isDisposable } from '../deliverability/verdict.ts';
import type { OperatorStore } from '../sidecar/store/waitlist-store.ts';

const RECENT_HOURS = 48;
const HOUR_MS = 3_600_000;

/**
 * Members at a throwaway domain and their percentage of all members (one decimal); the start of each
 * UTC hour (ISO), oldest first, the last being the hour of `now` counted up to `now`; and the first
 * sign-ups in each of those hours.
 */
export async function recentOf(store: Pick<OperatorStore, 'membersPerDomain' | 'export'>, now: number, list: ReadonlySet<string>) {
  const first = (Math.floor(now / HOUR_MS) - RECENT_HOURS + 1) * HOUR_MS;
  const perHour = new Array<number>(RECENT_HOURS).fill(0);
  for await (const record of store.export({ since: new Date(first).toISOString() })) {
    const created = Date.parse(record.createdAt);
    if (created <= now) perHour[Math.floor((created - first) / HOUR_MS)] += 1;
  }
  let members = 0;
  let throwaway = 0;
  for (const [domain, n] of await store.membersPerDomain()) {
    members += n;
    if (isDisposable(domain, list)) throwaway += n;
  }
  return {
    throwaway: { members: throwaway, percent: members ? Math.round((throwaway / members) * 1000) / 10 : 0 },
    hours: perHour.map((_, i) => new Date(first + i * HOUR_MS).toISOString()),
    perHour,
  };
}

export type Recent = Awaited<ReturnType<typeof recentOf>>;
