/** Operation 6: the zero-auth index of a base path, with absolute links (ApiIndex schema). */
import { apiIndexBody } from '../../contract/index.ts';
import { jsonResponse } from '../http/respond.ts';
import type { RouteModule } from './route-module.ts';

export const getApiIndex: RouteModule = {
  id: 'getApiIndex',
  async handle(_event, { env, urls }) {
    return jsonResponse(200, apiIndexBody(urls, env));
  },
};
