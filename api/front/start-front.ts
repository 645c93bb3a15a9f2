/**
 * Builds and starts the front from configuration: the site from DIST_DIR, the proxy to the
 * sidecar, the request log. Used by the front's own entry (main.ts) and by `npm start`.
 */
import type http from 'node:http';
import type { Config } from '../config.ts';
import type { Logger } from '../log/logger.ts';
import { createFrontHandler } from './app.ts';
import { createCors } from './cors.ts';
import { requestClient } from './forward-headers.ts';
import { ownApiFields } from './own-answer.ts';
import { requestTracker, type Finished } from './log.ts';
import { trustedProxies } from '../net/client-address.ts';
import type { HoldEvents } from './hold.ts';
import { createProxy, type Upstream } from './proxy.ts';
import { listen, type Listening } from './server.ts';
import { loadSite, type Site } from './static.ts';
import { clientLimits, rateLimitMirror } from './client-limits.ts';
import { sidecarAddress } from '../net/sidecar-address.ts';

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
  const mirror = rateLimitMirror(config);
  const { proxy, close: closeProxy } = createProxy({
    upstream: options.upstream ?? (() => fixed),
    trusted,
    mirror,
    onError: (message) => options.logger.error(message),
    holdMs: config.SIDECAR_HOLD_MS,
    holdEvents: options.holdEvents,
  });
  // A preflight counts nothing: it shows what the sidecar last told this client (rate-limit-mirror.ts).
  const corsApiFields = (req: http.IncomingMessage) =>
    ownApiFields(mirror.fields(mirror.key(requestClient(req, trusted), req.url ?? '/', req.method ?? 'OPTIONS')));
  const track = requestTracker({ trusted, logger: config.LOG_REQUESTS ? options.logger : undefined, onFinish: options.onFinish });
  const listening = await listen(createFrontHandler({ site, proxy, track, mirror, cors: createCors(config.CORS_ORIGINS, corsApiFields) }), config.HOST, config.PORT, clientLimits(config, trusted, mirror, track));
  return { ...listening, closeProxy };
}
