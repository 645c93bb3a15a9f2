/**
 * The operator channel's invitation routes (protocol.ts): `waitlist invite` claims, confirms,
 * fails and releases members through the sidecar, the JSON file's single writer, so two runs at
 * once (or a run and the sign-ups) never write the file side by side.
 */
import type { IncomingMessage } from 'node:http';
import { z } from 'zod';
import { InviteClaimSchema, InviteFilterSchema } from '../domain/invitation.ts';
import type { InvitationStore } from '../store/waitlist-store.ts';

/** The largest invitation request (a claim naming the members its run left out). */
const MAX_INVITE_REQUEST_BYTES = 8_388_608;
/** The longest server reply a failure carries (it is stored shortened: domain/invitation.ts failureText). */
const MAX_REPLY_CHARS = 16_384;

const Settle = z.object({ email: z.string().min(1), messageId: z.string().min(1) }).strict();
const Confirm = Settle.extend({ at: z.iso.datetime() }).strict();
const Fail = Settle.extend({ reply: z.string().max(MAX_REPLY_CHARS) }).strict();

export type Answer = (status: number, body: unknown) => void;

/** Handles `POST /invite/…`; false when the route is not one of them. */
export async function inviteRoute(store: InvitationStore, route: string, req: IncomingMessage, answer: Answer): Promise<boolean> {
  const handlers: Record<string, (body: unknown) => Promise<unknown> | undefined> = {
    'POST /invite/claim': (body) => ifValid(InviteClaimSchema, body, async (claim) => ({ records: await store.claimInvitees(claim) })),
    'POST /invite/confirm': (body) => ifValid(Confirm, body, async (c) => ({ done: await store.confirmInvitation(c.email, c.messageId, c.at) })),
    'POST /invite/fail': (body) => ifValid(Fail, body, async (f) => ({ done: await store.failInvitation(f.email, f.messageId, f.reply) })),
    'POST /invite/release': (body) => ifValid(Settle, body, async (r) => ({ done: await store.releaseInvitation(r.email, r.messageId) })),
    'POST /invite/unconfirmed': (body) =>
      ifValid(z.object({ filter: InviteFilterSchema }).strict(), body, async ({ filter }) => ({ records: await store.unconfirmedInvitations(filter) })),
  };
  const handler = Object.hasOwn(handlers, route) ? handlers[route] : undefined;
  if (!handler) return false;
  const result = handler(await jsonBody(req, MAX_INVITE_REQUEST_BYTES));
  if (result === undefined) answer(400, { error: 'bad_request' });
  else answer(200, await result);
  return true;
}

function ifValid<T>(schema: z.ZodType<T>, body: unknown, run: (value: T) => Promise<unknown>): Promise<unknown> | undefined {
  const parsed = schema.safeParse(body);
  return parsed.success ? run(parsed.data) : undefined;
}

/** The request's JSON body, or undefined when it is longer than `limit` or not JSON. */
export async function jsonBody(req: IncomingMessage, limit: number): Promise<unknown> {
  let text = '';
  for await (const chunk of req) {
    text += chunk;
    if (text.length > limit) return undefined;
  }
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
