/** The sidecar's end of the operator channel (protocol.ts); the store behind it is the sidecar's own. */
import { unlink } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { pipeline } from 'node:stream/promises';
import { z } from 'zod';
import { LANGS } from '../../contract/index.ts';
import { MAX_SOCKET_PATH_BYTES } from '../../net/sidecar-address.ts';
import { isDayRange } from '../domain/day-series.ts';
import { InviteClaimSchema, InviteFilterSchema } from '../domain/invitation.ts';
import { closeGracefully } from '../../net/close-gracefully.ts';
import { listenPrivateSocket } from '../listen.ts';
import type { InvitationStore, OperatorStore } from '../store/waitlist-store.ts';
import { operatorSocketPath } from './protocol.ts';

/** The largest request body of a single address in JSON (show). */
const MAX_REQUEST_BYTES = 4096;
/** An erasure: one address, or a chunk of `erase --from` (a thousand addresses of up to 254 characters). */
const MAX_ERASE_BYTES = 1_048_576;
/** The largest invitation request (a claim naming the members its run left out). */
const MAX_INVITE_REQUEST_BYTES = 8_388_608;
/** The longest server reply a failure carries (it is stored shortened: domain/invitation.ts failureText). */
const MAX_REPLY_CHARS = 16_384;
const Erase = z.object({ emails: z.array(z.string().min(1)) }).strict();
const Show = z.object({ email: z.string().min(1) });
const ExportQuery = z.object({ lang: z.enum(LANGS).optional(), since: z.string().refine((since) => !Number.isNaN(Date.parse(since))).optional() });
const Settle = z.object({ email: z.string().min(1), messageId: z.string().min(1) }).strict();
const Confirm = Settle.extend({ at: z.iso.datetime() }).strict();
const Fail = Settle.extend({ reply: z.string().max(MAX_REPLY_CHARS) }).strict();
const Unconfirmed = z.object({ filter: InviteFilterSchema }).strict();

/** How long a closing sidecar lets operator calls in flight finish (a long export is cut). */
const CLOSE_GRACE_MS = 1_000;

type Store = OperatorStore & InvitationStore;
type Handler = (store: Store, req: IncomingMessage, res: ServerResponse, query: URLSearchParams) => Promise<void>;

export interface OperatorServer {
  close(): Promise<void>;
}

/**
 * Listens on DATA_DIR/operator.sock. The caller holds the data-directory lock, so a socket file
 * found there is a leftover of a crashed run and is replaced. When the path is too long for a Unix
 * socket, warns and serves nothing (show and erase then need the service stopped).
 */
export async function serveOperator(store: Store, dataDir: string, warn?: (line: string) => void): Promise<OperatorServer | undefined> {
  const path = operatorSocketPath(dataDir);
  if (Buffer.byteLength(path) > MAX_SOCKET_PATH_BYTES) {
    warn?.(`operator socket: ${path} is too long for a Unix socket; show and erase need the service stopped. Use a shorter DATA_DIR.`);
    return undefined;
  }
  await unlink(path).catch(() => {});
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://operator');
    const route = `${req.method} ${url.pathname}`;
    const handler = Object.hasOwn(ROUTES, route) ? ROUTES[route] : async () => answer(res, 404, { error: 'not_found' });
    handler(store, req, res, url.searchParams).catch(() => answer(res, 500, { error: 'internal_error' }));
  });
  await listenPrivateSocket(server, path, (code) => `The operator channel cannot listen on ${path} (${code}).`);
  // A call in flight (an erase waiting for its commit) is answered before the store closes.
  return { close: () => closeGracefully(server, CLOSE_GRACE_MS) };
}

/** A POST route: its JSON body (at most `limit` bytes) must match `schema` (else 400); `run`'s result is the 200 body, undefined is 404. */
function post<T>(limit: number, schema: z.ZodType<T>, run: (store: Store, body: T) => Promise<unknown>): Handler {
  return async (store, req, res) => {
    const body = schema.safeParse(await jsonBody(req, limit));
    if (!body.success) return answer(res, 400, { error: 'bad_request' });
    const result = await run(store, body.data);
    return result === undefined ? answer(res, 404, { error: 'not_found' }) : answer(res, 200, result);
  };
}

const ROUTES: Record<string, Handler> = {
  'GET /count': async (store, _req, res) => answer(res, 200, { count: await store.count() }),
  'GET /domains': async (store, _req, res) => answer(res, 200, { domains: [...(await store.membersPerDomain())] }),
  'GET /stats': async (store, _req, res, query) => {
    const now = Number(query.get('now') ?? Date.now());
    return Number.isFinite(now) ? answer(res, 200, await store.stats(now)) : answer(res, 400, { error: 'bad_time' });
  },
  'GET /series': async (store, _req, res, query) => {
    const range = { since: query.get('since'), until: query.get('until') };
    return isDayRange(range) ? answer(res, 200, await store.signupsPerDay(range)) : answer(res, 400, { error: 'bad_range' });
  },
  'GET /export': async (store, _req, res, query) => {
    const filter = ExportQuery.safeParse(Object.fromEntries(query));
    if (!filter.success) return answer(res, 400, { error: 'bad_filter' });
    res.writeHead(200, { 'content-type': 'application/jsonl' });
    // pipeline waits for the reader (a slow pipe never piles the export up in memory) and stops when it leaves.
    await pipeline(async function* () {
      for await (const record of store.export(filter.data)) yield `${JSON.stringify(record)}\n`;
    }, res);
  },
  'POST /show': post(MAX_REQUEST_BYTES, Show, (store, { email }) => store.show(email)),
  'POST /erase': post(MAX_ERASE_BYTES, Erase, async (store, { emails }) => ({ erased: await store.eraseMany(emails) })),
  // `waitlist invite` through the sidecar, the file's single writer: two runs at once (or a run and the sign-ups) never write it side by side.
  'POST /invite/claim': post(MAX_INVITE_REQUEST_BYTES, InviteClaimSchema, async (store, claim) => ({ records: await store.claimInvitees(claim) })),
  'POST /invite/confirm': post(MAX_INVITE_REQUEST_BYTES, Confirm, async (store, c) => ({ done: await store.confirmInvitation(c.email, c.messageId, c.at) })),
  'POST /invite/fail': post(MAX_INVITE_REQUEST_BYTES, Fail, async (store, f) => ({ done: await store.failInvitation(f.email, f.messageId, f.reply) })),
  'POST /invite/release': post(MAX_INVITE_REQUEST_BYTES, Settle, async (store, r) => ({ done: await store.releaseInvitation(r.email, r.messageId) })),
  'POST /invite/unconfirmed': post(MAX_INVITE_REQUEST_BYTES, Unconfirmed, async (store, { filter }) => ({ records: await store.unconfirmedInvitations(filter) })),
};

/** The request's JSON body, or undefined when it is longer than `limit` bytes or not JSON. */
async function jsonBody(req: IncomingMessage, limit: number): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > limit) return undefined;
    chunks.push(chunk);
  }
  try {
    // Decoded whole: a character split between two chunks stays one character.
    return JSON.parse(Buffer.concat(chunks, size).toString('utf8'));
  } catch {
    return undefined;
  }
}

function answer(res: ServerResponse, status: number, body: unknown): void {
  if (res.headersSent) return void res.destroy();
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}
