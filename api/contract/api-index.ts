/** The bodies of operations 1 and 6, the status probe and the index of a base path: one builder each for the sidecar and the docs' examples. */
import type { Environment } from './enums.ts';
import { API_VERSION, SERVICE_NAME } from './limits.ts';
import type { EnvironmentUrls } from './paths.ts';
import { ApiIndex, type Status } from './schemas.ts';

/** Pure: the status of `env` at `now` (ms since the epoch), with the links to its documentation. */
export function statusBody(urls: EnvironmentUrls, env: Environment, now: number): Status {
  return {
    status: 'ok',
    service: SERVICE_NAME,
    apiVersion: API_VERSION,
    environment: env,
    time: new Date(now).toISOString(),
    docs: urls.guide,
    openapi: urls.openapi,
  };
}

/** Pure: the index of `env`, every link absolute, from that environment's URLs. */
export function apiIndexBody(urls: EnvironmentUrls, env: Environment): ApiIndex {
  return {
    service: SERVICE_NAME,
    apiVersion: API_VERSION,
    environment: env,
    // The links the schema lists, in its order, each the environment's URL of that name.
    links: Object.fromEntries(ApiIndex.shape.links.keyof().options.map((name) => [name, urls[name]])) as ApiIndex['links'],
  };
}
