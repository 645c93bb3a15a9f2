/**
 * The preview's way to the API: an Astro integration that passes /api and /sandbox/api to the dev
 * sidecar (Unix socket or TCP), streaming both ways. Only for `npm run dev`; production has the
 * front (api/front/proxy.ts) with its header rules, timeouts and X-Forwarded-For.
 */
import http from 'node:http';
import type { AstroIntegration } from 'astro';
import type { ViteDevServer } from 'vite';
import { isApiPath } from '../api/front/proxy.ts';
import type { SidecarAddress } from '../api/net/sidecar-address.ts';

/** `upstream`: where the sidecar listens now; undefined while it restarts (the request gets 502). */
export function devApiProxy(upstream: () => SidecarAddress | undefined): AstroIntegration {
  let dev: ViteDevServer | undefined;
  return {
    name: 'dev-api-proxy',
    hooks: {
      'astro:server:setup': ({ server }) => {
        dev = server;
      },
      // Once every plugin has set up: first in the stack, before Astro's own trailing-slash and
      // route guards, which would answer 404 to /api/v1/status (no trailing slash).
      'astro:server:start': () => {
        dev!.middlewares.stack.unshift({
          route: '',
          handle: (req: http.IncomingMessage, res: http.ServerResponse, next: () => void) => {
            if (!isApiPath(req.url ?? '/')) return next();
            const failed = (why: string) => {
              if (!res.headersSent) res.writeHead(502, { 'Content-Type': 'text/plain' });
              res.end(`the preview's API sidecar is not answering: ${why}\n`);
            };
            const target = upstream();
            if (!target) return failed('it is restarting');
            const request = http.request({ ...target, method: req.method, path: req.url, headers: req.headers }, (answer) => {
              res.writeHead(answer.statusCode ?? 502, answer.headers);
              answer.pipe(res);
            });
            request.on('error', (error) => failed(error.message));
            req.pipe(request);
          },
        });
      },
    },
  };
}
