/**
 * The preview's way to the API: an Astro integration that passes /api and /sandbox/api to the dev
 * sidecar through the front's own proxy (api/front/proxy.ts), so the preview's API answers as the
 * product's do, a request during a sidecar restart included. Only for `npm run dev`.
 */
import type http from 'node:http';
import type { AstroIntegration } from 'astro';
import type { ViteDevServer } from 'vite';
import { createProxy, isApiPath } from '../api/front/proxy.ts';
import type { SidecarAddress } from '../api/net/sidecar-address.ts';

/** `upstream`: where the sidecar listens now; undefined while it restarts. */
export function devApiProxy(upstream: () => SidecarAddress | undefined): AstroIntegration {
  const { proxy } = createProxy({ upstream, trusted: () => false, holdMs: 2_000, onError: (message) => console.error(message) });
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
          handle: (req: http.IncomingMessage, res: http.ServerResponse, next: () => void) => (isApiPath(req.url ?? '/') ? proxy(req, res) : next()),
        });
      },
    },
  };
}
