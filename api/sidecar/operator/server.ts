/** The sidecar's end of the operator channel (protocol.ts); the store behind it is the sidecar's own. */
import { unlink } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { pipeline } from 'node:stream/promises';
import { z } from 'zod';
import { LANGS } from '../../contract/index.ts';
import { MAX_SOCKET_PATH_BYTES } from '../../net/sidecar-address.ts';
import { InviteClaimSchema, InviteFilterSchema } from '../domain/invitation.ts';
import { closeGracefully } from '../../net/close-gracefully.ts';
import { listenPrivateSocket } from '../listen.ts';
import type { ExportFilter, InvitationStore, OperatorStore } from '../store/waitlist-store.ts';
import { operatorSocketPath, type Call } from './protocol.ts';

/** The largest call: an invitation claim naming the members its run left out, or a chunk of `erase --from`. */
const MAX_REQUEST_BYTES = 8_388_608;
/** How long a closing sidecar lets operator calls in flight finish (a long export is cut). */
const CLOSE_GRACE_MS = 1_000;

type Store = OperatorStore & InvitationStore;

const text = z.string().min(1);
const time = z.string().refine((value) => !Number.isNaN(Date.parse(value)));
const ExportQuery = z.object({ lang: z.enum(LANGS).optional(), since: time.optional() }).strict();
const DayRange = z.object({ since: time, until: time }).refine((range) => Date.parse(range.since) <= Date.parse(range.until));

/** The arguments each call takes; anything else is refused with 400 before the store sees it. */
const ARGUMENTS: Record<Call | 'export', z.ZodType<unknown[]>> = {
  count: z.tuple([]),
  stats: z.tuple([z.number()]),
  signupsPerDay: z.tuple([DayRange]),
  membersPerDomain: z.tuple([]),
  show: z.tuple([text]),
  erase: z.tuple([text]),
  eraseMany: z.tuple([z.array(text)]),
  export: z.tuple([ExportQuery]),
  // `waitlist invite` through the sidecar, the file's single writer: two runs at once (or a run and the sign-ups) never write it side by side.
  claimInvitees: z.tuple([InviteClaimSchema]),
  confirmInvitation: z.tuple([text, text, z.iso.datetime()]),
  failInvitation: z.tuple([text, text, z.string()]),
  releaseInvitation: z.tuple([text, text]),
  unconfirmedInvitations: z.tuple([InviteFilterSchema]),
};

/**
 * Listens on DATA_DIR/operator.sock. The caller holds the data-directory lock, so a socket file
 * found there is a leftover of a crashed run and is replaced. When the path is too long for a Unix
 * socket, warns and serves nothing (show and erase then need the service stopped).
 */
export async function serveOperator(store: Store, dataDir: string, warn?: (line: string) => void): Promise<{ close(): Promise<void> } | undefined> {
  const path = operatorSocketPath(dataDir);
  if (Buffer.byteLength(path) > MAX_SOCKET_PATH_BYTES) {
    warn?.(`operator socket: ${path} is too long for a Unix socket; show and erase need the service stopped. Use a shorter DATA_DIR.`);
    return undefined;
  }
  await unlink(path).catch(() => {});
  const server = createServer((req, res) => void serve(store, req, res).catch(() => answer(res, 500, { error: 'internal_error' })));
  await listenPrivateSocket(server, path, (code) => `The operator channel cannot listen on ${path} (${code}).`);
  // A call in flight (an erase waiting for its commit) is answered before the store closes.
  return { close: () => closeGracefully(server, CLOSE_GRACE_MS) };
}

async function serve(store: Store, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const method = req.url?.slice(1) ?? '';
  if (req.method !== 'POST' || !Object.hasOwn(ARGUMENTS, method)) return answer(res, 404, { error: 'not_found' });
  const args = ARGUMENTS[method as Call | 'export'].safeParse(await jsonBody(req));
  if (!args.success) return answer(res, 400, { error: 'bad_request' });
  if (method === 'export') {
    res.writeHead(200, { 'content-type': 'application/jsonl' });
    // pipeline waits for the reader (a slow pipe never piles the export up in memory) and stops when it leaves.
    return pipeline(async function* () {
      for await (const record of store.export(args.data[0] as ExportFilter)) yield `${JSON.stringify(record)}\n`;
    }, res);
  }
  const result: unknown = await (store[method as Call] as (...args: unknown[]) => Promise<unknown>)(...args.data);
  answer(res, 200, { result: result instanceof Map ? [...result] : result });
}

/** The request's JSON body, or undefined when it is longer than MAX_REQUEST_BYTES or not JSON. */
async function jsonBody(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_REQUEST_BYTES) return undefined;
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
