/**
 * RFC 9112 §3.2: a server MUST answer 400 to an HTTP/1.1 request without a Host field, and to any
 * request with more than one Host field line or a Host value that is not `uri-host [":" port]`.
 * node:http's own check answers a bare 400 and lets two Host lines through (undici then refuses
 * to forward them), so its check is off (server.ts) and this one answers like a parser refusal:
 * on API paths the contract's 400 invalid_request with the API headers (parser-refusal.ts). The
 * connection is closed afterwards, as node:http's check does.
 */
import type http from 'node:http';
import { closeAfterAnswer } from './body-cap.ts';
import { refusal } from './parser-refusal.ts';
import type { RateLimitMirror } from './rate-limit-mirror.ts';

/** RFC 3986 §3.2.2 host (IP-literal, IPv4 or reg-name, percent-encoding allowed) and §3.2.3 port; empty is allowed (RFC 9112 §3.2). */
const HOST = /^(?:\[[0-9A-Za-z:.]+\]|[A-Za-z0-9._~!$&'()*+,;=%-]*)(?::[0-9]*)?$/;

/** True when the request's Host field is as RFC 9112 §3.2 requires. */
export function hostFieldValid(req: http.IncomingMessage): boolean {
  let count = 0;
  const raw = req.rawHeaders;
  for (let i = 0; i < raw.length; i += 2) {
    if (raw[i].length === 4 && raw[i].toLowerCase() === 'host' && (++count > 1 || !HOST.test(raw[i + 1]))) return false;
  }
  // HTTP/1.0 predates Host: only HTTP/1.1 must send it.
  return count === 1 || (count === 0 && !(req.httpVersionMajor === 1 && req.httpVersionMinor === 1));
}

/**
 * Answers a request the front refuses before any handling (a bad Host field, a request target that
 * is neither origin-form nor an acceptable absolute-form) as a parser refusal would be answered.
 */
export function refuseRequest(req: http.IncomingMessage, res: http.ServerResponse, mirror?: RateLimitMirror): void {
  const method = req.method ?? '';
  const answer = refusal(req.url ?? '', req.socket.remoteAddress, method, mirror);
  closeAfterAnswer(req, res);
  res.writeHead(answer.status, answer.headers);
  res.end(method === 'HEAD' ? undefined : answer.body);
}
