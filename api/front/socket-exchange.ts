/**
 * A request and its response on a socket that node:http no longer drives: one whose parser gave
 * up ('clientError') or that it handed over as a tunnel ('connect'). The front then answers the
 * request as it answers any other (the handler, the request line in the log, the metrics), and
 * the connection ends with the answer: the parser cannot find the next request in it, and the
 * request's body, if any, is never read.
 */
import http from 'node:http';
import type net from 'node:net';

/** What the front read of a request node:http did not deliver. */
export interface Head {
  method: string;
  target: string;
  /** e.g. [1, 1]; [1, 1] when the request line did not say. */
  version: [number, number];
  /** Field lines as [name, value, name, value, …], without the framing fields. */
  rawHeaders: string[];
}

/** Fields that frame a body; a request answered here is answered without its body. */
const FRAMING = new Set(['content-length', 'transfer-encoding']);

export function withoutFraming(rawHeaders: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < rawHeaders.length; i += 2) if (!FRAMING.has(rawHeaders[i]!.toLowerCase())) out.push(rawHeaders[i]!, rawHeaders[i + 1]!);
  return out;
}

type FieldAdder = { _addHeaderLine(name: string, value: string, into: http.IncomingHttpHeaders): void };

/** rawHeaders and headers, the second derived by node:http's own rules (repeats joined or dropped, names lower-cased). */
function setFields(req: http.IncomingMessage, rawHeaders: string[]): void {
  const headers: http.IncomingHttpHeaders = {};
  for (let i = 0; i < rawHeaders.length; i += 2) (req as unknown as FieldAdder)._addHeaderLine(rawHeaders[i]!, rawHeaders[i + 1]!, headers);
  req.rawHeaders = rawHeaders;
  req.headers = headers;
}

/** A complete, bodiless IncomingMessage for `head`, on `socket`. */
export function requestOnSocket(socket: net.Socket, head: Head): http.IncomingMessage {
  const req = new http.IncomingMessage(socket);
  req.method = head.method;
  req.url = head.target;
  [req.httpVersionMajor, req.httpVersionMinor] = head.version;
  req.httpVersion = `${head.version[0]}.${head.version[1]}`;
  setFields(req, withoutFraming(head.rawHeaders));
  req.complete = true;
  req.push(null);
  return req;
}

/**
 * A response to `req` written to `socket` with `Connection: close`, which ends the connection
 * once sent and then emits 'close' (as node:http's own responses do, for the request log).
 */
export function responseOnSocket(req: http.IncomingMessage, socket: net.Socket): http.ServerResponse {
  const res = new http.ServerResponse(req);
  res.shouldKeepAlive = false;
  // The socket may already be detached from the server's handlers (a tunnel): keep its errors quiet.
  if (socket.listenerCount('error') === 0) socket.on('error', () => {});
  res.assignSocket(socket);
  // Closed early, node:http emits the response's 'close' itself (assignSocket); after detachSocket it no longer does.
  res.once('finish', () => {
    res.detachSocket(socket);
    socket.destroySoon();
    process.nextTick(() => res.emit('close'));
  });
  return res;
}

/**
 * 'connect': node:http hands a CONNECT request over as a tunnel, and without a listener it closes
 * the connection unanswered. The front opens no tunnels (it is no proxy); the request is answered
 * like any other method its target does not take (unlisted-method.ts).
 */
export function answerConnect(handler: http.RequestListener): (req: http.IncomingMessage, socket: net.Socket) => void {
  return (req, socket) => {
    setFields(req, withoutFraming(req.rawHeaders));
    handler(req, responseOnSocket(req, socket));
  };
}
