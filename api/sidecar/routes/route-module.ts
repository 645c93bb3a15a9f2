/** What each route file provides; mount.ts joins them with the contract's route table. */
import type { H3Event } from 'h3';
import type { Environment, EnvironmentUrls } from '../../contract/index.ts';
import type { AppDeps } from '../deps.ts';

export interface RouteContext {
  env: Environment;
  urls: EnvironmentUrls;
  deps: AppDeps;
}

/** One operation of the contract; its headers and error style come from the route table (api/contract/). */
export type RouteHandler = (event: H3Event, ctx: RouteContext) => Promise<Response>;
