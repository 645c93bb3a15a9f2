/**
 * Requests node:http refuses before the handler sees them ('clientError'): a lying or
 * non-numeric Content-Length, Transfer-Encoding with Content-Length, an invalid method, target or
 * version, a malformed field line, headers over 16 KB, and the header and whole-request deadlines
 * (server.ts). The connection is closed afterwards: the parser cannot find the next request in it.
 *
 * - A well-formed request whose only fault is a method llhttp does not know (`FOO`, `get`) is no
 *   fault at all (RFC 9110 §9.1: any token is a method): it is answered by the front's handler like
 *   any request with a method its resource does not take (unlisted-method.ts), without its body.
 * - Anything else is refused: on an API path, or when the path cannot be read, with the contract's
 *   `400 invalid_request` in the route's shape (own-answer.ts: `{error, error_description}` and
 *   no-store on the token endpoint); on a site path, a plain-text answer like node:http's own.
 * Either way the request gets its line in the request log and counts in the metrics.
 *
 * A refused request is not counted against its client's rate limit (it never reaches the
 * sidecar); its RateLimit-* fields repeat what the sidecar last told that client (rate-limit-mirror.ts).
 */
import { STATUS_CODES, maxHeaderSize, type IncomingMessage, type RequestListener, type ServerResponse } from 'node:http';
import type net from 'node:net';
import { SECURITY_HEADERS } from './headers.ts';
import type { Tracker } from './log.ts';
import { ownApiError, type OwnAnswer } from './own-answer.ts';
import { isApiPath } from './proxy.ts';
import type { RateLimitMirror } from './rate-limit-mirror.ts';
import { requestOnSocket, responseOnSocket, type Head } from './socket-exchange.ts';
import { isMethodToken } from './unlisted-method.ts';

/** node:http's own choice of status, for the plain-text answers on site paths. */
const SITE_STATUS: Record<string, number> = { HPE_HEADER_OVERFLOW: 431, ERR_HTTP_REQUEST_TIMEOUT: 408 };

interface ParserError extends Error {
  code?: string;
  rawPacket?: Buffer;
}

/** node:http's socket while a response is in flight (the same check node:http's default makes). */
type HttpSocket = net.Socket & { _httpMessage?: ServerResponse<IncomingMessage> & { _headerSent?: boolean } };

export interface RefusalHooks {
  /** RateLimit-* fields for the refusals. */
  mirror?: RateLimitMirror;
  /** The front's handler, for requests refused only for their method. */
  handler?: RequestListener;
  /** Request line and metrics of a refused request (log.ts). */
  track?: Tracker;
}

export function refuseUnparsed({ mirror, handler, track }: RefusalHooks = {}): (error: ParserError, socket: net.Socket) => void {
  // Sockets whose answer is on its way (it closes them): later parser errors on them change nothing.
  const answering = new WeakSet<net.Socket>();
  return (error, raw) => {
    const socket = raw as HttpSocket;
    if (answering.has(socket)) return;
    const inFlight = socket._httpMessage;
    if (error.code === 'ECONNRESET' || !socket.writable || inFlight?._headerSent) return void socket.destroy();
    if (inFlight) {
      // A deadline or a body framing error while the request is with the handler: its line is known,
      // and the handler already gave it its log line, which shows this status.
      const method = inFlight.req.method ?? '';
      const answer = refusal(inFlight.req.url ?? '', socket.remoteAddress, method, mirror, SITE_STATUS[error.code ?? ''] ?? 400);
      inFlight.statusCode = answer.status;
      // RFC 9110 §9.3.2: HEAD gets the headers only.
      socket.end(serialize(method === 'HEAD' ? { ...answer, body: '' } : answer));
      return void socket.destroySoon();
    }
    answering.add(socket);
    const head = readHead(error.rawPacket);
    if (error.code === 'HPE_INVALID_METHOD' && head.complete && handler) {
      const req = requestOnSocket(socket, head);
      return handler(req, responseOnSocket(req, socket));
    }
    const req = requestOnSocket(socket, { ...head, rawHeaders: [] });
    const res = responseOnSocket(req, socket);
    track?.(req, res, !head.target.startsWith('/') || isApiPath(head.target));
    const answer = refusal(head.target, socket.remoteAddress, head.method, mirror, SITE_STATUS[error.code ?? ''] ?? 400);
    res.writeHead(answer.status, answer.headers);
    res.end(answer.body);
  };
}

/**
 * The answer to a request refused before it is handled, by node:http's parser or by the front's
 * own checks of what the parser lets through (host-field.ts, absolute-form.ts): 400
 * invalid_request on API paths (and where the path cannot be read), a plain-text `siteStatus` on
 * site paths.
 */
export function refusal(target: string, peer: string | undefined, method: string, mirror: RateLimitMirror | undefined, siteStatus = 400): OwnAnswer {
  return !target.startsWith('/') || isApiPath(target)
    ? ownApiError('invalid_request', mirror ? mirror.fields(mirror.key(peer, target, method)) : [], target)
    : plain(siteStatus);
}

/** The refused request's head as far as the packet holds it; `complete` when all of it is there and well-formed. */
export function readHead(packet: Buffer | undefined): Head & { complete: boolean } {
  const text = packet?.toString('latin1', 0, Math.min(packet.length, 65_536)) ?? '';
  const end = text.indexOf('\r\n\r\n');
  const [line = '', ...fields] = (end === -1 ? text : text.slice(0, end)).split('\r\n');
  const [method = '', target = '', version = '', ...extra] = line.split(' ');
  const v = /^HTTP\/1\.([01])$/.exec(version);
  const head: Head & { complete: boolean } = { method, target, version: [1, v ? Number(v[1]) : 1], rawHeaders: [], complete: false };
  // A head over node:http's limit is refused as node:http refuses any (HPE_HEADER_OVERFLOW).
  if (end === -1 || end + 4 > maxHeaderSize || !v || extra.length || !isMethodToken(method) || !/^[\x21-\x7e]+$/.test(target)) return head;
  for (const field of fields) {
    // RFC 9112 §5: name ":" OWS value OWS; no obsolete line folding, no space before the colon, no control characters.
    const match = /^([!#$%&'*+.^_`|~0-9A-Za-z-]+):[ \t]*((?:[^\x00-\x08\x0a-\x1f\x7f]*[^\x00-\x20\x7f])?)[ \t]*$/.exec(field);
    if (!match) return head;
    head.rawHeaders.push(match[1]!, match[2]!);
  }
  head.complete = true;
  return head;
}

function plain(status: number): OwnAnswer {
  const body = `${STATUS_CODES[status]}\n`;
  return {
    status,
    headers: ['Content-Type', 'text/plain; charset=utf-8', 'Content-Length', String(Buffer.byteLength(body)), 'Cache-Control', 'no-store', ...SECURITY_HEADERS],
    body,
  };
}

function serialize({ status, headers, body }: OwnAnswer): string {
  let head = `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n`;
  for (let i = 0; i < headers.length; i += 2) head += `${headers[i]}: ${headers[i + 1]}\r\n`;
  return `${head}Connection: close\r\n\r\n${body}`;
}
