/** The invite run's gathered confirmations (api/invite/confirmations.ts) when the store refuses them. */
import { describe, expect, test, vi } from 'vitest';
import { Confirmations } from '../../api/invite/confirmations.ts';
import type { WaitlistRecord } from '../../api/sidecar/domain/record.ts';
import type { InvitationStore } from '../../api/sidecar/store/waitlist-store.ts';

const member = (email: string) => ({ email, invitation: { messageId: `<${email}>` } }) as unknown as WaitlistRecord;

describe('invite confirmations', () => {
  test('confirmations: a store that throws at once (closed) fails the waiting batch with its error, and the timer that flushes it throws nothing', async () => {
    vi.useFakeTimers();
    try {
      const closed = { confirmInvitations: () => { throw new Error('store is closed'); } } as unknown as InvitationStore;
      const outcomes: [string, string | undefined][] = [];
      const confirmations = new Confirmations(closed, (record, error) => outcomes.push([record.email, error?.message]));
      await confirmations.add(member('a@example.com'), '2026-11-26T00:00:00.000Z');
      await confirmations.add(member('b@example.com'), '2026-11-26T00:00:00.000Z');
      // The batch waits for others; the flush comes from the timer, outside any caller's await.
      await vi.advanceTimersByTimeAsync(1_000);
      await confirmations.settle();
      expect(outcomes).toEqual([['a@example.com', 'store is closed'], ['b@example.com', 'store is closed']]);
    } finally {
      vi.useRealTimers();
    }
  });
});
