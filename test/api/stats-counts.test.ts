/**
 * The JSON store keeps its statistics as it changes, so a stats answer never walks the records; these properties hold them equal
 * to a full recount (domain/stats.ts computeStats) after random sign-ups, repeats and erasures,
 * at window boundaries to the millisecond, and after a reopen (counts rebuilt from the file).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BUILDING, LANGS, ROLES, SOURCES, type WaitlistSignup } from '../../api/contract/index.ts';
import { computeStats, DAY_MS } from '../../api/sidecar/domain/stats.ts';
import { SortedTimes } from '../../api/sidecar/store/json/running-stats.ts';
import { JsonWaitlistStore } from '../../api/sidecar/store/json/waitlist-store.ts';
import type { WaitlistStore } from '../../api/sidecar/store/waitlist-store.ts';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'stats-counts-'));
});
afterEach(() => rm(dir, { recursive: true, force: true }));

const BASE = Date.parse('2026-11-20T12:00:00.000Z');
/** Few addresses, so repeats and erasures of stored records are frequent. */
const email = fc.integer({ min: 0, max: 7 }).map((i) => `p${i}@example.com`);
/** Sign-up times from 40 days before BASE to a day after. */
const offset = fc.integer({ min: -40 * DAY_MS, max: DAY_MS });

const signup = fc.record({
  kind: fc.constant('signup' as const),
  email,
  at: offset,
  role: fc.option(fc.constantFrom(...ROLES), { nil: undefined }),
  building: fc.option(fc.constantFrom(...BUILDING), { nil: undefined }),
  source: fc.option(fc.constantFrom(...SOURCES), { nil: undefined }),
  lang: fc.option(fc.constantFrom(...LANGS), { nil: undefined }),
  form: fc.boolean(),
});
const erase = fc.record({ kind: fc.constant('erase' as const), email });
const operations = fc.array(fc.oneof({ arbitrary: signup, weight: 3 }, { arbitrary: erase, weight: 1 }), { maxLength: 40 });

async function all(store: WaitlistStore) {
  const records = [];
  for await (const record of store.export()) records.push(record);
  return records;
}

/** Times of the question: arbitrary ones, and each window edge of every stored sign-up, ±1 ms. */
function questionTimes(createdAts: number[], extra: number[]): number[] {
  const edges = createdAts.flatMap((t) => [7, 30].flatMap((days) => [-1, 0, 1].map((ms) => t + days * DAY_MS + ms)));
  return [BASE, ...extra.map((o) => BASE + o), ...edges];
}

describe('running statistics of the JSON store', () => {
  it('stats: after random sign-ups, repeats and erasures, every count equals a full recount (windows exact to the ms), also after reopening', async () => {
    let run = 0;
    await fc.assert(
      fc.asyncProperty(operations, fc.array(fc.integer({ min: -5 * DAY_MS, max: 45 * DAY_MS }), { maxLength: 3 }), async (ops, extra) => {
        const path = join(dir, String(run++));
        const store = await JsonWaitlistStore.open(path);
        const pending: Promise<unknown>[] = [];
        // Not awaited one by one: changes apply at the call, and group commits keep the run fast.
        for (const op of ops) {
          if (op.kind === 'erase') pending.push(store.erase(op.email));
          else {
            const { role, building, source, lang } = op;
            const input: WaitlistSignup = { email: op.email, consent: true, role, building, source, lang };
            pending.push(store.upsert(input, op.form ? 'form' : 'json', new Date(BASE + op.at).toISOString()));
          }
        }
        await Promise.all(pending);
        const records = await all(store);
        const times = questionTimes(records.map((r) => Date.parse(r.createdAt)), extra);
        for (const now of times) expect(await store.stats(now)).toEqual(computeStats(records, now));
        await store.close();

        const reopened = await JsonWaitlistStore.open(path);
        for (const now of times) expect(await reopened.stats(now)).toEqual(computeStats(records, now));
        await reopened.close();
      }),
      { numRuns: 60 },
    );
  }, 60_000);

  it('sorted times: inserts and removals in any order count like a sorted list', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.boolean(), fc.integer({ min: 0, max: 50 })), { maxLength: 60 }), fc.integer({ min: -1, max: 51 }), (steps, bound) => {
        // Capacity 1: every insert past the first grows the array.
        const times = new SortedTimes(1);
        const model: number[] = [];
        for (const [add, value] of steps) {
          if (add) {
            times.insert(value);
            model.push(value);
          } else if (model.includes(value)) {
            times.remove(value);
            model.splice(model.indexOf(value), 1);
          }
        }
        expect(times.size).toBe(model.length);
        expect(times.countAfter(bound)).toBe(model.filter((v) => v > bound).length);
      }),
      { numRuns: 300 },
    );
  });
});
