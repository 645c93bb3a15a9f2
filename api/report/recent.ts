/**
 * The members at throwaway domains (from the list, never DNS) and the first sign-ups per hour of
 * the last 48 (docs/operator.md, "What each number means"). The store, `now` and the list are passed in.
 */
import { isDisposable } from '../deliverability/verdict.ts';
import type { OperatorStore } from '../sidecar/store/waitlist-store.ts';

const RECENT_HOURS = 48;
const HOUR_MS = 3_600_000;

/** `hours`: the start of each UTC hour (ISO), oldest first; `percent`: one decimal. */
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
