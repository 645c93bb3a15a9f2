/**
 * The JSON store's file, re-read after each of several commits, equals the store's records in
 * sign-up order, whatever the changes: new sign-ups, repeats and erasures anywhere in the list.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ROLES } from '../../api/contract/index.ts';
import { JsonWaitlistStore } from '../../api/sidecar/store/json/waitlist-store.ts';
import type { WaitlistStore } from '../../api/sidecar/store/waitlist-store.ts';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'store-file-'));
});
afterEach(() => rm(dir, { recursive: true, force: true }));

/** Records in the list before the changes. */
const SEEDED = 100;
const AT = '2026-11-20T12:00:00.000Z';
const address = (i: number) => `m${i}@example.com`;

/** A change to a stored record (most of them) or a new one; `role` makes a repeat change the record. */
const change = fc.record({
  erase: fc.boolean(),
  member: fc.integer({ min: 0, max: SEEDED + 100 }),
  role: fc.constantFrom(...ROLES),
});
/** Changes in groups: each group is awaited, so each ends in its own commit. */
const groups = fc.array(fc.array(change, { minLength: 1, maxLength: 12 }), { minLength: 1, maxLength: 4 });

async function all(store: WaitlistStore) {
  const records = [];
  for await (const record of store.export()) records.push(record);
  return records;
}

describe('the JSON store file', () => {
  it('json store: the file re-read after every commit holds exactly the records, in sign-up order', async () => {
    let run = 0;
    await fc.assert(
      fc.asyncProperty(groups, async (steps) => {
        const path = join(dir, String(run++));
        const store = await JsonWaitlistStore.open(path);
        try {
          await Promise.all(Array.from({ length: SEEDED }, (_, i) => store.upsert({ email: address(i), consent: true }, 'json', AT)));
          for (const step of steps) {
            await Promise.all(
              step.map(({ erase, member, role }) =>
                erase ? store.erase(address(member)) : store.upsert({ email: address(member), consent: true, role }, 'json', AT),
              ),
            );
            expect(await all((await JsonWaitlistStore.readOnly(path))!)).toEqual(await all(store));
          }
        } finally {
          await store.close();
        }
      }),
      { numRuns: 15 },
    );
  }, 60_000);

  it('json store: erasing in bulk, whole stretches of the list included, leaves a file that re-reads as the rest, in sign-up order', async () => {
    const store = await JsonWaitlistStore.open(dir);
    try {
      await Promise.all(Array.from({ length: 1000 }, (_, i) => store.upsert({ email: address(i), consent: true }, 'json', AT)));
      const gone = Array.from({ length: 1000 }, (_, i) => i).filter((i) => i < 300 || i % 7 === 0 || i >= 990);
      expect(await store.eraseMany([...gone.map(address), 'nobody@example.com'])).toEqual([...gone.map(() => true), false]);
      const kept = await all(store);
      expect(kept.map((record) => record.email)).toEqual(Array.from({ length: 1000 }, (_, i) => i).filter((i) => !gone.includes(i)).map(address));
      expect(await all((await JsonWaitlistStore.readOnly(dir))!)).toEqual(kept);
    } finally {
      await store.close();
    }
  });
});
