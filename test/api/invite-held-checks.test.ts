/**
 * The invite run's checks that it still holds a member's claim before the message goes
 * (api/invite/held-checks.ts): asked for the member and the next ones in line in one call of the
 * store, each answer standing for FRESH_MS.
 */
import { describe, expect, test } from 'vitest';
import { FRESH_MS, HeldChecks } from '../../api/invite/held-checks.ts';
import type { ClaimRef } from '../../api/sidecar/domain/invitation.ts';
import type { WaitlistRecord } from '../../api/sidecar/domain/record.ts';

const member = (i: number) => ({ email: `m${i}@example.com`, invitation: { state: 'claimed', messageId: `<${i}@example.org>` } }) as WaitlistRecord;

/** A store whose held claims are those not in `gone`, and which records every call. */
function store(gone: Set<string> = new Set()) {
  const calls: string[][] = [];
  return {
    calls,
    async claimsHeld(claims: readonly ClaimRef[]) {
      calls.push(claims.map((c) => c.email));
      return claims.map((c) => !gone.has(c.email));
    },
  };
}

describe('invite held checks', () => {
  test('held checks: with no rate, the member about to be sent and the next 63 in line are asked about in one call', async () => {
    const queue = Array.from({ length: 100 }, (_, i) => member(i));
    const fake = store(new Set(['m5@example.com']));
    const checks = new HeldChecks(fake, () => queue, 0, () => 0);
    const answers: boolean[] = [];
    while (queue.length) answers.push(await checks.held(queue.shift()!));
    expect(fake.calls.map((call) => call.length)).toEqual([64, 36]);
    expect(fake.calls[0][0]).toBe('m0@example.com');
    expect(answers.filter((held) => !held)).toHaveLength(1);
    expect(answers[5]).toBe(false);
  });

  test('held checks: at a rate, a group is what goes out within the time an answer stands; an older answer is asked again', async () => {
    const queue = Array.from({ length: 20 }, (_, i) => member(i));
    const fake = store();
    let now = 0;
    const checks = new HeldChecks(fake, () => queue, 5, () => now);
    await checks.held(queue.shift()!);
    expect(fake.calls).toEqual([['m0@example.com', 'm1@example.com', 'm2@example.com', 'm3@example.com', 'm4@example.com']]);
    now = FRESH_MS;
    await checks.held(queue.shift()!);
    expect(fake.calls).toHaveLength(1);
    now = FRESH_MS + 1;
    await checks.held(queue.shift()!);
    expect(fake.calls[1]).toEqual(['m2@example.com', 'm3@example.com', 'm4@example.com', 'm5@example.com', 'm6@example.com']);
  });

  test('held checks: an answer for another claim of the same member (re-claimed under a new Message-ID) is not used', async () => {
    const first = member(1);
    const fake = store();
    const checks = new HeldChecks(fake, () => [first], 0, () => 0);
    await checks.held(member(0));
    const reclaimed = { ...first, invitation: { ...first.invitation!, messageId: '<new@example.org>' } };
    await checks.held(reclaimed);
    expect(fake.calls).toEqual([['m0@example.com', 'm1@example.com'], ['m1@example.com']]);
  });

  test('held checks: a store that refuses at once (closed) fails the check, thrown nowhere else', async () => {
    const closed = { claimsHeld: () => { throw new Error('store is closed'); } };
    const checks = new HeldChecks(closed, () => [member(1)], 0, () => 0);
    await expect(checks.held(member(0))).rejects.toThrow('store is closed');
    await expect(checks.held(member(1))).rejects.toThrow('store is closed');
  });
});
