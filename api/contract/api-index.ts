/** The body of operation 6, the zero-auth index of a base path: one builder for the sidecar and the docs' example. */
import type { Environment } from './enums.ts';
import { API_VERSION, SERVICE_NAME } from './limits.ts';
import type { EnvironmentUrls } from './paths.ts';
import type { ApiIndex } from './schemas.ts';

/** Pure: the index of `env`, every link absolute, from that environment's URLs. */
export function apiIndexBody(urls: EnvironmentUrls, env: Environment): ApiIndex {
  return {
    service: SERVICE_NAME,
    apiVersion: API_VERSION,
    environment: env,
    links: {
      status: urls.status,
      token: urls.token,
      stats: urls.stats,
      waitlist: urls.waitlist,
      openapi: urls.openapi,
      openapiMarkdown: urls.openapiMarkdown,
      apiCatalog: urls.apiCatalog,
      authorizationServerMetadata: urls.authorizationServerMetadata,
      protectedResourceMetadata: urls.protectedResourceMetadata,
      guide: urls.guide,
    },
  };
}
