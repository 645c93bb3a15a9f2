/**
 * Builds and starts the front from configuration: the site from DIST_DIR, the proxy to the
 * sidecar, the request log. Used by the front's own entry (main.ts) and by `npm start`.
 */
import type { Config } from '../config.ts';
import { createFrontHandler } from './app.ts';
import { createCors } from './cors.ts';
import { trustedProxies } from '../net/client-address.ts';
import { createProxy, type Upstream } from './proxy.ts';
import { listen, type Listening } from './server.ts';
import { loadSite } from './static.ts';

export interface FrontOptions {
  /** Where the sidecar is; undefined while it is down. Defaults to SIDECAR_HOST:SIDECAR_PORT. */
  upstream?: () => Upstream | undefined;
}

export interface Front extends Listening {
  closeProxy(): void;
}

export async function startFront(config: Config, options: FrontOptions = {}): Promise<Front> {
  const trusted = trustedProxies(config.TRUST_PROXY);
  const site = await loadSite(config.DIST_DIR, config.BASE_URL);
  const fixed: Upstream = { host: config.SIDECAR_HOST, port: config.SIDECAR_PORT };
  const { proxy, close: closeProxy } = createProxy({
    upstream: options.upstream ?? (() => fixed),
    trusted,
    onError: (message) => console.error(message),
  });
  const log = config.LOG_REQUESTS ? (line: string) => console.log(line) : undefined;
  const listening = await listen(createFrontHandler({ site, proxy, log, cors: createCors(config.CORS_ORIGINS) }), config.HOST, config.PORT);
  return { ...listening, closeProxy };
}
