/** Operation 1: the zero-auth status probe (contract part 2, Status). */
import { API_VERSION, SERVICE_NAME, type Status } from '../../contract/index.ts';
import { jsonResponse } from '../http/respond.ts';
import type { RouteContext } from './route-module.ts';

/** The probe's body; the MCP `status` tool answers the same. */
export function statusBody({ env, urls, deps }: RouteContext): Status {
  return {
    status: 'ok',
    service: SERVICE_NAME,
    apiVersion: API_VERSION,
    environment: env,
    time: new Date(deps.clock.now()).toISOString(),
    docs: urls.guide,
    openapi: urls.openapi,
  };
}

export async function getStatus(_event: unknown, ctx: RouteContext): Promise<Response> {
  return jsonResponse(200, statusBody(ctx));
}
