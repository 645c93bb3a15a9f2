/**
 * The invitation steps of both stores (InvitationStore): claims take the next never-invited
 * members in sign-up order, narrowed by the filter, each exactly once, durably; confirmations,
 * failures and releases move only the claim they name; a new sign-up keeps the invitation; erase
 * removes it with the record; old JSON records without one read unchanged.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { WaitlistSignup } from '../../api/contract/index.ts';
import { loadConfig } from '../../api/config.ts';
import type { InviteClaim } from '../../api/sidecar/domain/invitation.ts';
import type { WaitlistRecord } from '../../api/sidecar/domain/record.ts';
import { migrateToPostgres, readJsonDataDir } from '../../api/sidecar/store/postgres/migrate.ts';
import { exportHeader, exportLine } from '../../api/sidecar/domain/record-export.ts';
import { openBackend } from '../../api/sidecar/store/open-backend.ts';
import { JsonWaitlistStore, STORE_FILE_NAME } from '../../api/sidecar/store/json/waitlist-store.ts';
import type { WaitlistStore } from '../../api/sidecar/store/waitlist-store.ts';
import { postgresBinDir } from '../support/engines/postgres.ts';
import { describeWithEngine } from '../support/engines/require.ts';
import { usePostgres } from './support/backends.ts';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const AT = '2026-11-25T12:00:00.000Z';
const claim = (count: number, extra: Partial<InviteClaim> = {}): InviteClaim => ({ count, filter: {}, at: AT, messageIdDomain: 'example.org', ...extra });

/** Six members, one minute apart: m0 en developer, m1 de data, m2 en data, m3 de developer, m4 en data, m5 de data. */
async function seed(store: WaitlistStore): Promise<void> {
  for (let i = 0; i < 6; i++) {
    const signup: WaitlistSignup = { email: `m${i}@example.com`, consent: true, lang: i % 2 ? 'de' : 'en', role: i % 3 === 0 ? 'developer' : 'data' };
    await store.upsert(signup, 'json', new Date(Date.UTC(2026, 10, 1, 0, i)).toISOString());
  }
}

type Opened = { store: WaitlistStore; reopen(): Promise<WaitlistStore> };

function invitationContract(open: () => Promise<Opened>): void {
  it('invite store: claims take the next never-invited members in sign-up order, narrowed by the filter, durably', async () => {
    const { store, reopen } = await open();
    await seed(store);
    const first = await store.claimInvitees(claim(2, { filter: { role: 'data' } }));
    expect(first.map((r) => r.email)).toEqual(['m1@example.com', 'm2@example.com']);
    expect(first[0].invitation).toMatchObject({ state: 'claimed', claimedAt: AT });
    expect(first[0].invitation!.messageId).toMatch(/^<[0-9a-f-]{36}@example\.org>$/);
    const second = await store.claimInvitees(claim(10, { filter: { lang: 'en' } }));
    expect(second.map((r) => r.email)).toEqual(['m0@example.com', 'm4@example.com']);
    const again = await reopen();
    expect((await again.unconfirmedInvitations()).map((r) => r.email)).toEqual(['m0@example.com', 'm1@example.com', 'm2@example.com', 'm4@example.com']);
    expect((await again.claimInvitees(claim(10))).map((r) => r.email)).toEqual(['m3@example.com', 'm5@example.com']);
    expect(await again.claimInvitees(claim(10))).toEqual([]);
  });

  it('invite store: confirm, fail and release move only the claim they name; show and export carry the fields', async () => {
    const { store, reopen } = await open();
    await seed(store);
    const [a, b, c] = await store.claimInvitees(claim(3));
    // A stale Message-ID, a member nobody claimed, the right one, then the same again.
    expect(await store.confirmInvitation(a.email, '<other@example.org>', AT)).toBe(false);
    expect(await store.confirmInvitation('nobody@example.com', a.invitation!.messageId, AT)).toBe(false);
    expect(await store.confirmInvitation(a.email, a.invitation!.messageId, '2026-11-25T12:00:01.000Z')).toBe(true);
    expect(await store.confirmInvitation(a.email, a.invitation!.messageId, '2026-11-25T12:00:02.000Z')).toBe(false);
    expect(await store.failInvitation(b.email, b.invitation!.messageId, '550 5.1.1   mailbox\r\n unavailable')).toBe(true);
    expect(await store.releaseInvitation(c.email, c.invitation!.messageId)).toBe(true);
    const again = await reopen();
    expect((await again.show(a.email))!.invitation).toEqual({ state: 'sent', claimedAt: AT, invitedAt: '2026-11-25T12:00:01.000Z', messageId: a.invitation!.messageId });
    expect((await again.show(b.email))!.invitation).toEqual({ state: 'failed', claimedAt: AT, messageId: b.invitation!.messageId, error: '550 5.1.1 mailbox unavailable' });
    expect((await again.show(c.email))!.invitation).toBeUndefined();
    expect(await again.unconfirmedInvitations()).toEqual([]);
    const lines = [exportHeader('csv')];
    for await (const record of again.export()) lines.push(exportLine('csv', record));
    expect(lines[0]).toContain(',invitation.state,invitation.claimedAt,invitation.invitedAt,invitation.messageId,invitation.error\r\n');
    expect(lines[1]).toContain(`,sent,${AT},2026-11-25T12:00:01.000Z,${a.invitation!.messageId},\r\n`);
    expect(lines[3]).toMatch(/,,,,,\r\n$/);
  });

  it('invite store: a new sign-up keeps the invitation; erase removes it with the record', async () => {
    const { store } = await open();
    await seed(store);
    const [a] = await store.claimInvitees(claim(1));
    await store.confirmInvitation(a.email, a.invitation!.messageId, AT);
    await store.upsert({ email: a.email, consent: true, lang: 'de' }, 'form', '2026-11-26T00:00:00.000Z');
    expect((await store.show(a.email))!.invitation).toMatchObject({ state: 'sent' });
    expect((await store.claimInvitees(claim(1))).map((r) => r.email)).toEqual(['m1@example.com']);
    expect(await store.erase(a.email)).toBe(true);
    await store.upsert({ email: a.email, consent: true }, 'json', '2026-11-27T00:00:00.000Z');
    expect((await store.show(a.email))!.invitation).toBeUndefined();
  });

  it('invite store: a member put back or erased among those already invited is never skipped, and no one is claimed twice', async () => {
    const { store } = await open();
    await seed(store);
    const [m0, , m2] = await store.claimInvitees(claim(3));
    // Nobody left matches: the claim looks at every never-invited member and takes none.
    expect(await store.claimInvitees(claim(1, { filter: { lang: 'en', role: 'developer' } }))).toEqual([]);
    expect(await store.erase(m0.email)).toBe(true);
    expect((await store.claimInvitees(claim(1))).map((r) => r.email)).toEqual(['m3@example.com']);
    expect(await store.releaseInvitation(m2.email, m2.invitation!.messageId)).toBe(true);
    expect((await store.claimInvitees(claim(2))).map((r) => r.email)).toEqual(['m2@example.com', 'm4@example.com']);
    await store.upsert({ email: 'm6@example.com', consent: true }, 'json', '2026-11-02T00:00:00.000Z');
    expect((await store.claimInvitees(claim(10))).map((r) => r.email)).toEqual(['m5@example.com', 'm6@example.com']);
    expect(await store.claimInvitees(claim(10))).toEqual([]);
  });

  it('invite store: once sent, erased or re-claimed, a claim can no longer be confirmed, failed or released', async () => {
    const { store } = await open();
    await seed(store);
    const [a, b, c] = await store.claimInvitees(claim(3, { at: '2026-11-25T10:00:00.000Z' }));
    expect(await store.confirmInvitation(a.email, a.invitation!.messageId, AT)).toBe(true);
    expect(await store.erase(b.email)).toBe(true);
    const [again] = await store.claimInvitees(claim(1, { claimedBefore: AT }));
    expect(again.email).toBe(c.email);
    expect(await store.releaseInvitation(a.email, a.invitation!.messageId)).toBe(false);
    expect(await store.failInvitation(b.email, b.invitation!.messageId, '550 gone')).toBe(false);
    expect(await store.confirmInvitation(c.email, c.invitation!.messageId, AT)).toBe(false);
    expect(await store.confirmInvitation(again.email, again.invitation!.messageId, AT)).toBe(true);
    expect((await store.show(a.email))!.invitation).toMatchObject({ state: 'sent' });
  });

  it('invite store: concurrent claims never hand out one member twice', async () => {
    const { store } = await open();
    for (let i = 0; i < 60; i++) await store.upsert({ email: `c${i}@example.com`, consent: true }, 'json', new Date(Date.UTC(2026, 10, 1, 0, 0, i)).toISOString());
    const batches = await Promise.all(Array.from({ length: 8 }, () => store.claimInvitees(claim(10))));
    const emails = batches.flat().map((r) => r.email);
    expect(new Set(emails).size).toBe(emails.length);
    expect(emails.length).toBe(60);
  });

  it('invite store: --resend re-claims only members left claimed before the run, with a new Message-ID', async () => {
    const { store } = await open();
    await seed(store);
    const [a] = await store.claimInvitees(claim(1, { at: '2026-11-25T10:00:00.000Z' }));
    const resent = await store.claimInvitees(claim(5, { claimedBefore: AT }));
    expect(resent.map((r) => r.email)).toEqual([a.email]);
    expect(resent[0].invitation!.messageId).not.toBe(a.invitation!.messageId);
    expect(await store.claimInvitees(claim(5, { claimedBefore: AT }))).toEqual([]);
  });
}

describe('invitations (JSON store)', () => {
  invitationContract(async () => {
    const dir = await mkdtemp(join(tmpdir(), 'invite-store-'));
    let store = await JsonWaitlistStore.open(dir);
    cleanups.push(async () => {
      await store.close();
      await rm(dir, { recursive: true, force: true });
    });
    return {
      store,
      async reopen() {
        await store.close();
        store = await JsonWaitlistStore.open(dir);
        return store;
      },
    };
  });

  it('invite store: each invitation step is on disk when it resolves', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'invite-store-'));
    const store = await JsonWaitlistStore.open(dir);
    cleanups.push(async () => {
      await store.close();
      await rm(dir, { recursive: true, force: true });
    });
    await seed(store);
    const onDisk = async (email: string) => (await (await JsonWaitlistStore.readOnly(dir))!.show(email))!.invitation;
    const [a, b] = await store.claimInvitees(claim(2));
    expect(await onDisk(a.email)).toMatchObject({ state: 'claimed', messageId: a.invitation!.messageId });
    await store.confirmInvitation(a.email, a.invitation!.messageId, AT);
    expect(await onDisk(a.email)).toMatchObject({ state: 'sent', invitedAt: AT });
    await store.releaseInvitation(b.email, b.invitation!.messageId);
    expect(await onDisk(b.email)).toBeUndefined();
  });

  it('invite store: a run\'s write still waiting for a commit is written by close()', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'invite-store-'));
    cleanups.push(() => rm(dir, { recursive: true, force: true }));
    const store = await JsonWaitlistStore.open(dir);
    await seed(store);
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      const claiming = store.claimInvitees(claim(1));
      await store.close();
      expect((await claiming).map((r) => r.email)).toEqual(['m0@example.com']);
    } finally {
      vi.useRealTimers();
    }
    const again = await JsonWaitlistStore.open(dir);
    cleanups.push(() => again.close());
    expect((await again.unconfirmedInvitations()).map((r) => r.email)).toEqual(['m0@example.com']);
  });

  it('invite store: a data file written before invitations existed reads unchanged', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'invite-store-'));
    cleanups.push(() => rm(dir, { recursive: true, force: true }));
    const store = await JsonWaitlistStore.open(dir);
    await seed(store);
    await store.close();
    const before = await readFile(join(dir, STORE_FILE_NAME), 'utf8');
    expect(before).not.toContain('invitation');
    const reopened = await JsonWaitlistStore.open(dir);
    await reopened.sync();
    await reopened.close();
    expect(await readFile(join(dir, STORE_FILE_NAME), 'utf8')).toBe(before);
  });
});

describeWithEngine('PostgreSQL', postgresBinDir(), 'invitations (PostgreSQL store)', () => {
  const engine = usePostgres();

  it('invite store: moving the JSON store to PostgreSQL keeps every invitation, so nobody is invited twice after the move', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'invite-move-'));
    cleanups.push(() => rm(dir, { recursive: true, force: true }));
    const json = await JsonWaitlistStore.open(dir);
    await seed(json);
    const [a, b] = await json.claimInvitees(claim(3));
    await json.confirmInvitation(a.email, a.invitation!.messageId, AT);
    await json.failInvitation(b.email, b.invitation!.messageId, '550 no such user');
    await json.close();
    const url = await engine().createSchema();
    const pool = new pg.Pool({ connectionString: url });
    cleanups.push(() => pool.end());
    await migrateToPostgres(pool, await readJsonDataDir(dir));
    const backend = await openBackend({ ...loadConfig({}), DATABASE_URL: url });
    cleanups.push(() => backend.close());
    const moved: WaitlistRecord[] = [];
    for await (const record of backend.store.export()) moved.push(record);
    const original = await JsonWaitlistStore.readOnly(dir);
    const before: WaitlistRecord[] = [];
    for await (const record of original!.export()) before.push(record);
    expect(moved).toEqual(before);
    expect((await backend.store.unconfirmedInvitations()).map((r) => r.email)).toEqual(['m2@example.com']);
    expect((await backend.store.claimInvitees(claim(10))).map((r) => r.email)).toEqual(['m3@example.com', 'm4@example.com', 'm5@example.com']);
  });

  invitationContract(async () => {
    const url = await engine().createSchema();
    const config = { ...loadConfig({}), DATABASE_URL: url };
    let backend = await openBackend(config);
    cleanups.push(() => backend.close());
    return {
      store: backend.store,
      async reopen() {
        await backend.close();
        backend = await openBackend(config);
        return backend.store;
      },
    };
  });
});
