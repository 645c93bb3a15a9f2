/**
 * One invite run (api/invite/run.ts) on a real JSON store, with a mail server that records what it
 * is handed: what the run does when a member is erased mid-run, when the store fails, when the mail
 * server cannot be reached, and when it is interrupted. Under each, no member gets a message the
 * store does not account for.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { SendMailOptions } from 'nodemailer';
import { afterEach, describe, expect, it } from 'vitest';
import { runInvitations, type InviteRunDeps, type Outcome } from '../../api/invite/run.ts';
import type { MailServer } from '../../api/invite/transport.ts';
import { JsonWaitlistStore } from '../../api/sidecar/store/json/waitlist-store.ts';
import { seedMembers } from './support/invite.ts';

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const OPTIONS = { count: 100, filter: {}, rate: 0, resendUnconfirmed: false, from: 'Nimbus <invite@example.org>', connections: 2, attempts: 1, backoffMs: 0 };

async function openStore(members: number): Promise<JsonWaitlistStore> {
  const dir = await mkdtemp(join(tmpdir(), 'invite-run-'));
  const store = await JsonWaitlistStore.open(dir);
  cleanups.push(async () => {
    await store.close();
    await rm(dir, { recursive: true, force: true });
  });
  await seedMembers(store, members);
  return store;
}

/** A mail server that accepts every message, calling `onSend` first; `to` lists the recipients in order. */
function mailServer(onSend: (to: string) => unknown = () => {}): MailServer & { to: string[] } {
  const to: string[] = [];
  const sendMail = async (mail: SendMailOptions) => {
    await onSend(String(mail.to));
    to.push(String(mail.to));
    return { response: '250 OK' };
  };
  return { to, sendMail, close() {} } as unknown as MailServer & { to: string[] };
}

/** The run's dependencies over `store` and `mail`; outcomes collected in `outcomes`. */
function depsOf(store: InviteRunDeps['store'], mail: MailServer, outcomes: Outcome[], signal?: AbortSignal): InviteRunDeps {
  const render = () => ({ lang: 'en' as const, subject: 'Your place is ready', html: '<p>Welcome</p>', text: 'Welcome' });
  return { store, mail, render, now: () => new Date(), onOutcome: (outcome) => outcomes.push(outcome), signal };
}

/** The store's invitation steps and `show`, with `overrides` in their place. */
function storeWith(store: JsonWaitlistStore, overrides: Partial<InviteRunDeps['store']>): InviteRunDeps['store'] {
  return {
    claimInvitees: (claim) => store.claimInvitees(claim),
    confirmInvitation: (email, messageId, at) => store.confirmInvitation(email, messageId, at),
    failInvitation: (email, messageId, reply) => store.failInvitation(email, messageId, reply),
    releaseInvitation: (email, messageId) => store.releaseInvitation(email, messageId),
    unconfirmedInvitations: (filter) => store.unconfirmedInvitations(filter),
    show: (email) => store.show(email),
    ...overrides,
  };
}

describe('invite run', () => {
  it('invite run: a member erased after the run claimed them gets no message and is reported not sent', async () => {
    const store = await openStore(6);
    const mail = mailServer(async (to) => {
      if (to === 'm0@example.com') await store.erase('m4@example.com');
    });
    const outcomes: Outcome[] = [];
    const summary = await runInvitations(depsOf(store, mail, outcomes), { ...OPTIONS, connections: 1 });
    expect(summary).toEqual({ sent: 5, failed: 0, unconfirmed: 0, notSent: 1, leftOut: { disposable: 0, no_mail: 0 } });
    expect(mail.to).toEqual(['m0@example.com', 'm1@example.com', 'm2@example.com', 'm3@example.com', 'm5@example.com']);
    expect(outcomes.find((o) => o.email === 'm4@example.com')).toMatchObject({ state: 'not_sent' });
    expect(await store.show('m4@example.com')).toBeUndefined();
  });

  it('invite run: a sent message the store cannot record is reported unconfirmed, stops the run, and stays claimed for the next run to report', async () => {
    const store = await openStore(6);
    const mail = mailServer();
    const outcomes: Outcome[] = [];
    const failing = storeWith(store, { confirmInvitation: async () => Promise.reject(new Error('disk full')) });
    const summary = await runInvitations(depsOf(failing, mail, outcomes), { ...OPTIONS, connections: 1 });
    expect(summary).toEqual({ sent: 0, failed: 0, unconfirmed: 1, notSent: 0, leftOut: { disposable: 0, no_mail: 0 }, stopped: 'the store could not record a sent invitation (disk full)' });
    expect(mail.to).toEqual(['m0@example.com']);
    expect((await store.unconfirmedInvitations()).map((r) => r.email)).toEqual(['m0@example.com']);
    // The others were claimed and never tried: released, so the next run takes them.
    expect((await store.claimInvitees({ count: 10, filter: {}, at: new Date().toISOString(), messageIdDomain: 'example.org' })).map((r) => r.email)).toEqual([
      'm1@example.com', 'm2@example.com', 'm3@example.com', 'm4@example.com', 'm5@example.com',
    ]);
  });

  it('invite run: a store that cannot say whether a claim is still held stops the run before any message goes', async () => {
    const store = await openStore(4);
    const mail = mailServer();
    const outcomes: Outcome[] = [];
    const away = storeWith(store, { show: async () => Promise.reject(new Error('operator channel: connect ENOENT')) });
    const summary = await runInvitations(depsOf(away, mail, outcomes), OPTIONS);
    expect(summary.stopped).toBe('the store failed (operator channel: connect ENOENT)');
    expect(summary.sent).toBe(0);
    expect(mail.to).toEqual([]);
    expect(outcomes).toEqual([]);
  });

  it('invite run: a mail server that cannot be reached is tried again with backoff, then the member is released and the run stops', async () => {
    const store = await openStore(3);
    let tries = 0;
    const away = {
      sendMail: async () => {
        tries += 1;
        throw Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:25'), { code: 'ESOCKET' });
      },
      close() {},
    } as unknown as MailServer;
    const outcomes: Outcome[] = [];
    const summary = await runInvitations(depsOf(store, away, outcomes), { ...OPTIONS, connections: 1, attempts: 3, backoffMs: 1 });
    expect(summary).toEqual({ sent: 0, failed: 0, unconfirmed: 0, notSent: 1, leftOut: { disposable: 0, no_mail: 0 }, stopped: 'the mail server cannot be reached (connect ECONNREFUSED 127.0.0.1:25)' });
    expect(tries).toBe(3);
    expect(outcomes).toMatchObject([{ email: 'm0@example.com', state: 'not_sent' }]);
    // Nothing was handed over: every member is as never invited, for the next run.
    for (let i = 0; i < 3; i++) expect((await store.show(`m${i}@example.com`))!.invitation).toBeUndefined();
  });

  it('invite run: interrupted, it finishes the message in flight, releases every member claimed and not tried, and says so', async () => {
    const store = await openStore(6);
    const interrupt = new AbortController();
    const mail = mailServer(() => interrupt.abort());
    const outcomes: Outcome[] = [];
    const summary = await runInvitations(depsOf(store, mail, outcomes, interrupt.signal), { ...OPTIONS, connections: 1 });
    expect(summary).toEqual({ sent: 1, failed: 0, unconfirmed: 0, notSent: 0, leftOut: { disposable: 0, no_mail: 0 }, stopped: 'interrupted' });
    expect((await store.show('m0@example.com'))!.invitation).toMatchObject({ state: 'sent' });
    expect(await store.unconfirmedInvitations()).toEqual([]);
    for (let i = 1; i < 6; i++) expect((await store.show(`m${i}@example.com`))!.invitation).toBeUndefined();
  });

  it('invite run: --count bounds the members claimed and sent, in sign-up order, unconfirmed ones first with --resend-unconfirmed', async () => {
    const store = await openStore(40);
    const [left] = await store.claimInvitees({ count: 1, filter: {}, at: '2026-11-01T00:00:00.000Z', messageIdDomain: 'example.org' });
    const mail = mailServer();
    const summary = await runInvitations(depsOf(store, mail, []), { ...OPTIONS, count: 20, resendUnconfirmed: true });
    expect(summary).toEqual({ sent: 20, failed: 0, unconfirmed: 0, notSent: 0, leftOut: { disposable: 0, no_mail: 0 } });
    expect(mail.to.slice().sort()).toEqual([left.email, ...Array.from({ length: 19 }, (_, i) => `m${i + 1}@example.com`)].sort());
    expect(await store.unconfirmedInvitations()).toEqual([]);
  });
});
