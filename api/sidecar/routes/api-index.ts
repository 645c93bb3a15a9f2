/** Operation 6: the zero-auth index of a base path, with absolute links (ApiIndex schema). */
import { API_VERSION, SERVICE_NAME, type ApiIndex } from '../../contract/index.ts';
import { jsonResponse } from '../http/respond.ts';
import type { RouteModule } from './route-module.ts';

export const getApiIndex: RouteModule = {
  id: 'getApiIndex',
  async handle(_event, { env, urls }) {
    const body: ApiIndex = {
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
    return jsonResponse(200, body);
  },
};
