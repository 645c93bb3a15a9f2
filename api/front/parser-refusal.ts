/**
 * Requests node:http refuses before the handler sees them ('clientError'): a lying or
 * non-numeric Content-Length, Transfer-Encoding with Content-Length, an invalid method or
 * target, headers over 16 KB, and the header and whole-request deadlines (server.ts). On an API
 * path, or when the path cannot be read, the answer is the contract's `400 invalid_request` with
 * the API headers (own-answer.ts); on a site path, a plain-text answer like node:http's own. The
 * connection is closed afterwards: the parser cannot find the next request in it.
 *
 * Such a request is not counted against its client's rate limit (it never reaches the sidecar);
 * its RateLimit-* fields repeat what the sidecar last told that client (rate-limit-mirror.ts).
 */
import { STATUS_CODES, type IncomingMessage, type ServerResponse } from 'node:http';
import type net from 'node:net';
import { SECURITY_HEADERS } from './headers.ts';
import { ownApiError, type OwnAnswer } from './own-answer.ts';
import { isApiPath } from './proxy.ts';
import type { RateLimitMirror } from './rate-limit-mirror.ts';

/** node:http's own choice of status, for the plain-text answers on site paths. */
const SITE_STATUS: Record<string, number> = { HPE_HEADER_OVERFLOW: 431, ERR_HTTP_REQUEST_TIMEOUT: 408 };

interface ParserError extends Error {
  code?: string;
  rawPacket?: Buffer;
}

/** node:http's socket while a response is in flight (the same check node:http's default makes). */
type HttpSocket = net.Socket & { _httpMessage?: ServerResponse<IncomingMessage> & { _headerSent?: boolean } };

export function refuseUnparsed(mirror?: RateLimitMirror): (error: ParserError, socket: net.Socket) => void {
  return (error, raw) => {
    const socket = raw as HttpSocket;
    const inFlight = socket._httpMessage;
    if (error.code === 'ECONNRESET' || !socket.writable || inFlight?._headerSent) return void socket.destroy();
    // A deadline can strike while a request is with the handler (a stalled body): its target is known.
    const [method, target] = inFlight ? [inFlight.req.method ?? '', inFlight.req.url ?? ''] : requestLine(error.rawPacket);
    const answer = refusal(target, socket.remoteAddress, method, mirror, SITE_STATUS[error.code ?? ''] ?? 400);
    // RFC 9110 §9.3.2: HEAD gets the headers only.
    socket.end(serialize(method === 'HEAD' ? { ...answer, body: '' } : answer));
    socket.destroySoon();
  };
}

/**
 * The answer to a request refused before it is handled, by node:http's parser or by the front's
 * own checks of what the parser lets through (host-field.ts): 400 invalid_request on API paths
 * (and where the path cannot be read), a plain-text `siteStatus` on site paths.
 */
export function refusal(target: string, peer: string | undefined, method: string, mirror: RateLimitMirror | undefined, siteStatus = 400): OwnAnswer {
  return !target.startsWith('/') || isApiPath(target)
    ? ownApiError('invalid_request', mirror ? mirror.fields(mirror.key(peer, target, method)) : [])
    : plain(siteStatus);
}

/** Method and target of the refused request's first line, as far as the packet holds them. */
function requestLine(packet: Buffer | undefined): [string, string] {
  const line = packet?.toString('latin1', 0, Math.min(packet.length, 8192)).split('\r\n', 1)[0] ?? '';
  const [method = '', target = ''] = line.split(' ');
  return [method, target];
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
