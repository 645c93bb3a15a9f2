/**
 * Builds and starts the front from configuration: the site from DIST_DIR, the proxy to the
 * sidecar, CORS, the request log and the limits on clients. Used by the front's own entry
 * (main.ts) and by `npm start` (scripts/start.ts).
 */
import type { Config } from '../config.ts';
import type { Logger } from '../log/logger.ts';
import { trustedProxies } from '../net/client-address.ts';
import { sidecarAddress, type SidecarAddress } from '../net/sidecar-address.ts';
import { createFrontHandler } from './app.ts';
import { createCors } from './cors.ts';
import { requestTracker } from './log.ts';
import type { FrontMetrics } from './metrics.ts';
import { createProxy } from './proxy.ts';
import { listen } from './server.ts';
import { loadSite, type Site } from './static.ts';

export interface FrontOptions {
  logger: Logger;
  /** Where the sidecar is; undefined while it is down. Defaults to SIDECAR_LISTEN's address (api/net/sidecar-address.ts). */
  upstream?: () => SidecarAddress | undefined;
  /** Counts requests, and those held while no sidecar answered. */
  metrics?: FrontMetrics;
  /** The site, when the caller loaded it already (npm start loads it while the sidecar boots). */
  site?: Site;
}

export async function startFront(config: Config, { logger, upstream, metrics, site }: FrontOptions) {
  const trusted = trustedProxies(config.TRUST_PROXY);
  const fixed = sidecarAddress(config);
  const { proxy, close: closeProxy } = createProxy({
    upstream: upstream ?? (() => fixed),
    trusted,
    onError: (message) => logger.error(message),
    holdMs: config.SIDECAR_HOLD_MS,
    holdEvents: metrics,
  });
  const track = requestTracker({ trusted, logger: config.LOG_REQUESTS ? logger : undefined, onFinish: metrics?.observe });
  const handler = createFrontHandler({
    site: site ?? (await loadSite(config.DIST_DIR, config.BASE_URL)),
    proxy,
    track,
    cors: createCors(config.CORS_ORIGINS),
  });
  const listening = await listen(handler, config.HOST, config.PORT, {
    headersTimeoutMs: config.HEADERS_TIMEOUT_MS,
    requestTimeoutMs: config.REQUEST_TIMEOUT_MS,
    keepAliveTimeoutMs: config.KEEP_ALIVE_TIMEOUT_MS,
    perClient: { max: config.MAX_CONNECTIONS_PER_CLIENT, trusted, ipv6PrefixBits: config.RATE_LIMIT_IPV6_PREFIX },
  });
  return { ...listening, closeProxy };
}

export type Front = Awaited<ReturnType<typeof startFront>>;
