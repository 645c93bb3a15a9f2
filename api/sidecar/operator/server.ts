/** The sidecar's end of the operator channel (protocol.ts); the store behind it is the sidecar's own. */
import { unlink } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { pipeline } from 'node:stream/promises';
import { z } from 'zod';
import { LANGS } from '../../contract/index.ts';
import { isDayRange } from '../domain/day-series.ts';
import { closeGracefully, listenPrivateSocket } from '../listen.ts';
import type { ExportFilter, InvitationStore, OperatorStore } from '../store/waitlist-store.ts';
import { MAX_REQUEST_BYTES, MAX_SOCKET_PATH_BYTES, operatorSocketPath } from './protocol.ts';
import { inviteRoute, jsonBody } from './invite-routes.ts';

/** An erasure: one address, or a chunk of `erase --from` (a thousand addresses of up to 254 characters). */
const MAX_ERASE_BYTES = 1_048_576;
const Erase = z.object({ emails: z.array(z.string().min(1)) }).strict();
const Show = z.object({ email: z.string().min(1) });
const ExportQuery = z.object({ lang: z.enum(LANGS).optional(), since: z.string().refine((since) => !Number.isNaN(Date.parse(since))).optional() });

/** How long a closing sidecar lets operator calls in flight finish (a long export is cut). */
const CLOSE_GRACE_MS = 1_000;

export interface OperatorServer {
  close(): Promise<void>;
}

/**
 * Listens on DATA_DIR/operator.sock. The caller holds the data-directory lock, so a socket file
 * found there is a leftover of a crashed run and is replaced. When the path is too long for a Unix
 * socket, warns and serves nothing (show and erase then need the service stopped).
 */
export async function serveOperator(
  store: OperatorStore & InvitationStore,
  dataDir: string,
  warn?: (line: string) => void,
): Promise<OperatorServer | undefined> {
  const path = operatorSocketPath(dataDir);
  if (Buffer.byteLength(path) > MAX_SOCKET_PATH_BYTES) {
    warn?.(`operator socket: ${path} is too long for a Unix socket; show and erase need the service stopped. Use a shorter DATA_DIR.`);
    return undefined;
  }
  await unlink(path).catch(() => {});
  const server = createServer((req, res) => {
    handle(store, req, res).catch(() => answer(res, 500, { error: 'internal_error' }));
  });
  await listenPrivateSocket(server, path, (code) => `The operator channel cannot listen on ${path} (${code}).`);
  // A call in flight (an erase waiting for its commit) is answered before the store closes.
  return { close: () => closeGracefully(server, CLOSE_GRACE_MS) };
}

async function handle(store: OperatorStore & InvitationStore, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const url = new URL(req.url ?? '/', 'http://operator');
  const route = `${req.method} ${url.pathname}`;
  if (route === 'GET /count') return answer(res, 200, { count: await store.count() });
  if (route === 'GET /domains') return answer(res, 200, { domains: [...(await store.membersPerDomain())] });
  if (route === 'POST /erase') {
    const body = Erase.safeParse(await jsonBody(req, MAX_ERASE_BYTES));
    return body.success ? answer(res, 200, { erased: await store.eraseMany(body.data.emails) }) : answer(res, 400, { error: 'bad_request' });
  }
  if (route === 'GET /stats') {
    const now = Number(url.searchParams.get('now') ?? Date.now());
    return Number.isFinite(now) ? answer(res, 200, await store.stats(now)) : answer(res, 400, { error: 'bad_time' });
  }
  if (route === 'GET /series') {
    const range = { since: url.searchParams.get('since'), until: url.searchParams.get('until') };
    return isDayRange(range) ? answer(res, 200, await store.signupsPerDay(range)) : answer(res, 400, { error: 'bad_range' });
  }
  if (route === 'GET /export') {
    const filter = ExportQuery.safeParse(Object.fromEntries(url.searchParams));
    return filter.success ? streamExport(store, filter.data, res) : answer(res, 400, { error: 'bad_filter' });
  }
  if (route === 'POST /show') {
    const body = Show.safeParse(await jsonBody(req, MAX_REQUEST_BYTES));
    if (!body.success) return answer(res, 400, { error: 'bad_request' });
    const record = await store.show(body.data.email);
    return record ? answer(res, 200, record) : answer(res, 404, { error: 'not_found' });
  }
  if (await inviteRoute(store, route, req, (status, body) => answer(res, status, body))) return;
  return answer(res, 404, { error: 'not_found' });
}

async function streamExport(store: OperatorStore, filter: ExportFilter, res: ServerResponse): Promise<void> {
  res.writeHead(200, { 'content-type': 'application/jsonl' });
  // pipeline waits for the reader (a slow pipe never piles the export up in memory) and stops when it leaves.
  await pipeline(async function* () {
    for await (const record of store.export(filter)) yield `${JSON.stringify(record)}\n`;
  }, res);
}

function answer(res: ServerResponse, status: number, body: unknown): void {
  if (res.headersSent) return void res.destroy();
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}
