/**
 * Builds and starts the front from configuration: the site from DIST_DIR, the proxy to the
 * sidecar, CORS, the request log and the limits on clients. Used by the front's own entry
 * (api/front/main.ts) and by `npm start`.
 */
import type { Config } from '../config.ts';
import type { Logger } from '../log/logger.ts';
import { trustedProxies } from '../net/client-address.ts';
import { sidecarAddress } from '../net/sidecar-address.ts';
import { createFrontHandler } from '../front/app.ts';
import { createCors } from '../front/cors.ts';
import { requestTracker, type Finished } from '../front/log.ts';
import { createProxy, type HoldEvents, type Upstream } from '../front/proxy.ts';
import { listen, type Listening } from '../front/server.ts';
import { loadSite, type Site } from '../front/static.ts';

export interface FrontOptions {
  /** Where the sidecar is; undefined while it is down. Defaults to SIDECAR_LISTEN's address (api/net/sidecar-address.ts). */
  upstream?: () => Upstream | undefined;
  /** Where request lines and proxy errors go. */
  logger: Logger;
  /** Called once per finished request (metrics). */
  onFinish?: (request: Finished) => void;
  /** Counts API requests held while no sidecar answered, and those given up (metrics). */
  holdEvents?: Partial<HoldEvents>;
  /** The site, when the caller loaded it already (npm start loads it while the sidecar boots). */
  site?: Site;
}

export interface Front extends Listening {
  closeProxy(): void;
}

export async function startFront(config: Config, options: FrontOptions): Promise<Front> {
  const trusted = trustedProxies(config.TRUST_PROXY);
  const site = options.site ?? (await loadSite(config.DIST_DIR, config.BASE_URL));
  const fixed: Upstream = sidecarAddress(config);
  const { proxy, close: closeProxy } = createProxy({
    upstream: options.upstream ?? (() => fixed),
    trusted,
    onError: (message) => options.logger.error(message),
    holdMs: config.SIDECAR_HOLD_MS,
    holdEvents: options.holdEvents,
  });
  const track = requestTracker({ trusted, logger: config.LOG_REQUESTS ? options.logger : undefined, onFinish: options.onFinish });
  const handler = createFrontHandler({ site, proxy, track, cors: createCors(config.CORS_ORIGINS) });
  const listening = await listen(handler, config.HOST, config.PORT, {
    headersTimeoutMs: config.HEADERS_TIMEOUT_MS,
    requestTimeoutMs: config.REQUEST_TIMEOUT_MS,
    keepAliveTimeoutMs: config.KEEP_ALIVE_TIMEOUT_MS,
    perClient: { max: config.MAX_CONNECTIONS_PER_CLIENT, trusted, ipv6PrefixBits: config.RATE_LIMIT_IPV6_PREFIX },
  });
  return { ...listening, closeProxy };
}
