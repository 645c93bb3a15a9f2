/** The h3 app of the API sidecar, built from injected parts (no process.env, no global state), so tests call `app.request(path, init)`. */
import { H3 } from 'h3';
import { environmentUrls } from '../contract/index.ts';
import type { AppDeps, RouteContext } from './deps.ts';
import { apiLayer } from './http/api-layer.ts';
import { trustedProxies } from '../net/client-address.ts';
import { ApiError } from './http/respond.ts';
import { memoryRateLimitStore } from './http/rate-limit/index.ts';
import { mountTable } from './mount.ts';

export function createApp(deps: AppDeps): H3 {
  // Malformed paths reach the layer (and get the API's 404) instead of h3's own 400.
  const app = new H3({ allowMalformedURL: true, silent: true });
  const mounts = new Map(mountTable().map((mount) => [mount.path, mount]));
  const limiter = deps.limiter ?? memoryRateLimitStore(deps.config);
  app.use(apiLayer({ ...deps, limiter, trust: trustedProxies(deps.config.TRUST_PROXY, { peerless: true }), mounts }));

  for (const mount of mounts.values()) {
    const ctx: RouteContext = { env: mount.env, urls: environmentUrls(deps.config.BASE_URL, mount.env), deps };
    for (const method of mount.route.methods) app.on(method, mount.path, (event) => mount.handler(event, ctx));
    // Any other method, unknown ones included: 405 with Allow from the route table (RFC 9110 §15.5.6).
    const allow = mount.route.methods.join(', ');
    app.all(mount.path, () => {
      throw new ApiError('method_not_allowed', { allow });
    });
  }
  return app;
}
