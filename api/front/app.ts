/**
 * The front's request handler: API paths to the sidecar, everything else from the in-memory site.
 * Static answers are chosen from precomputed representations; nothing here touches the disk.
 */
import type http from 'node:http';
import type { Cors } from './cors.ts';
import { SECURITY_HEADERS } from './headers.ts';
import type { Tracker } from './log.ts';
import { negotiateCoding, negotiatePage } from './negotiate.ts';
import { REFUSED, sendOwn } from './own-answers.ts';
import { isApiPath, type Proxy } from './proxy.ts';
import { matchesIfNoneMatch, type Representation } from './representation.ts';
import type { Site } from './static.ts';
import { adoptAbsoluteForm, hostFieldValid, parseTarget } from './target.ts';

/** `cors` is undefined when no origin is allowed; `track` gives each request its id and logs and counts it (log.ts). */
export function createFrontHandler({ site, proxy, cors, track }: { site: Site; proxy: Proxy; cors?: Cors; track?: Tracker }): http.RequestListener {
  return (req, res) => {
    // RFC 9112 §3.2.2: an absolute-form target is answered as the origin-form it names.
    const formOk = req.url!.charCodeAt(0) === 0x2f || adoptAbsoluteForm(req);
    const target = req.url ?? '/';
    const api = isApiPath(target);
    track?.(req, res, api);
    // RFC 9112 §3.2: a missing, repeated or malformed Host field is a 400.
    if (!formOk || !hostFieldValid(req)) return sendOwn(res, REFUSED);
    if (api) {
      if (cors?.preflight(req, res)) return;
      return proxy(req, res, cors?.fields(req));
    }

    const parsed = parseTarget(target);
    if (!parsed.ok) {
      if (parsed.reason === 'dotfile') return notFound(req, res, target.split('?', 1)[0]);
      return plain(res, 400, 'Bad Request');
    }
    const route = site.routes.get(parsed.path);
    if (!route) return notFound(req, res, parsed.path);
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      // RFC 9110 §15.5.6: 405 lists the methods the resource supports. OPTIONS is one of the others.
      return plain(res, 405, 'Method Not Allowed', ['Allow', 'GET, HEAD']);
    }
    switch (route.kind) {
      case 'redirect':
        res.writeHead(301, ['Location', route.location + parsed.query, 'Content-Length', '0', ...SECURITY_HEADERS]);
        return void res.end();
      case 'page': {
        const markdown = route.markdown && negotiatePage(req.headers.accept, route.primary) === 'markdown';
        return send(req, res, markdown ? route.markdown! : route.html, 200);
      }
      case 'file':
        return send(req, res, route.rep, 200);
    }
  };

  function notFound(req: http.IncomingMessage, res: http.ServerResponse, path: string): void {
    const pages = site.notFound(path);
    const wantsMarkdown = negotiatePage(req.headers.accept) === 'markdown';
    const rep = (wantsMarkdown && pages.markdown) || pages.html || pages.markdown;
    if (!rep) return plain(res, 404, 'Not Found');
    send(req, res, rep, 404);
  }
}

function send(req: http.IncomingMessage, res: http.ServerResponse, rep: Representation, status: 200 | 404): void {
  const coding = negotiateCoding(req.headers['accept-encoding'] as string | undefined, rep.codings);
  const encoded = rep.encoded[coding] ?? rep.encoded.identity;
  const ifNoneMatch = req.headers['if-none-match'];
  // RFC 9110 §13.1.2: only GET and HEAD turn a matching If-None-Match into 304.
  if (status === 200 && rep.meta.validators && ifNoneMatch && matchesIfNoneMatch(ifNoneMatch, encoded.etag)) {
    res.writeHead(304, encoded.notModified);
    return void res.end();
  }
  res.writeHead(status, encoded.ok);
  res.end(req.method === 'HEAD' ? undefined : encoded.body);
}

function plain(res: http.ServerResponse, status: number, text: string, extra: string[] = []): void {
  const body = `${text}\n`;
  res.writeHead(status, [
    'Content-Type', 'text/plain; charset=utf-8',
    'Content-Length', String(Buffer.byteLength(body)),
    'Cache-Control', 'no-store',
    ...extra,
    ...SECURITY_HEADERS,
  ]);
  res.end(res.req.method === 'HEAD' ? undefined : body);
}
