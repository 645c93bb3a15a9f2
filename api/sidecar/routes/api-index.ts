/** Operation 6: the zero-auth index of a base path, with absolute links (ApiIndex schema). */
import { apiIndexBody } from '../../contract/index.ts';
import { jsonResponse } from '../http/respond.ts';
import type { RouteContext } from './route-module.ts';

export async function getApiIndex(_event: unknown, { env, urls }: RouteContext): Promise<Response> {
  return jsonResponse(200, apiIndexBody(urls, env));
}
