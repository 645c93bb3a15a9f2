/**
 * The header fields the front passes on, each way. RFC 9110 §7.6.1: connection-specific fields
 * stay on their own hop. The client's own claims about forwarding are replaced by the front's
 * (X-Forwarded-For: see api/net/client-address.ts).
 */
import type http from 'node:http';
import { clientAddress, type Trusted } from '../net/client-address.ts';
import { requestIdOf } from './log.ts';

const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-connection', 'te', 'trailer', 'transfer-encoding', 'upgrade', 'proxy-authorization', 'proxy-authenticate']);
/**
 * Dropped from requests besides the hop-by-hop fields: forwarding claims; Expect, which node:http
 * has already answered with 100 Continue (RFC 9110 §10.1.1); Content-Length, which undici writes
 * for the body the front read (proxy.ts).
 */
const NOT_FORWARDED = new Set([...HOP_BY_HOP, 'expect', 'content-length', 'forwarded', 'x-forwarded-for', 'x-forwarded-proto', 'x-forwarded-host', 'x-forwarded-port', 'x-real-ip', 'x-request-id']);

/** The request's fields for the sidecar, as a flat [name, value, …] list. */
export function forwardHeaders(req: http.IncomingMessage, trusted: Trusted): string[] {
  const raw = req.rawHeaders;
  const named = connectionOptions(req.headers.connection);
  const out: string[] = [];
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i].toLowerCase();
    if (NOT_FORWARDED.has(name) || named?.has(name)) continue;
    out.push(raw[i], raw[i + 1]);
  }
  // '' rather than undefined: a front connection always has a peer, and "no peer" is not trusted
  // (a socket already gone has none).
  const peer = req.socket.remoteAddress ?? '';
  const client = clientAddress(peer, joined(req.headers['x-forwarded-for']), trusted);
  if (client) out.push('X-Forwarded-For', client);
  // The last value of a field a trusted proxy set.
  const viaTrusted = trusted(peer);
  const claimed = (name: string) => (viaTrusted ? joined(req.headers[name])?.split(',').pop()?.trim() || undefined : undefined);
  out.push('X-Forwarded-Proto', claimed('x-forwarded-proto') ?? 'http');
  const host = claimed('x-forwarded-host') ?? req.headers.host;
  if (host) out.push('X-Forwarded-Host', host);
  // The front's id for this request (log.ts), so the sidecar's error lines name it.
  const id = requestIdOf(req);
  if (id) out.push('X-Request-Id', id);
  return out;
}

/** The sidecar's fields for the client, as a flat [name, value, …] list. */
export function responseHeaders(headers: http.IncomingHttpHeaders): (string | string[])[] {
  const named = connectionOptions(headers.connection);
  const out: (string | string[])[] = [];
  for (const name in headers) {
    const value = headers[name];
    if (value === undefined || HOP_BY_HOP.has(name) || named?.has(name)) continue;
    out.push(name, value);
  }
  // Every API answer is nosniff (no browser renders an API body), whatever the sidecar remembered to send.
  if (headers['x-content-type-options'] === undefined) out.push('X-Content-Type-Options', 'nosniff');
  return out;
}

/** RFC 9110 §7.6.1: the fields a Connection header names; undefined for the usual bare keep-alive/close. */
function connectionOptions(connection: string | string[] | undefined): Set<string> | undefined {
  const value = joined(connection)?.toLowerCase();
  if (value === undefined || value === 'keep-alive' || value === 'close') return undefined;
  return new Set(value.split(',').map((token) => token.trim()));
}

/** A field's lines as one comma-separated value (RFC 9110 §5.3). */
function joined(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value.join(',') : value;
}
