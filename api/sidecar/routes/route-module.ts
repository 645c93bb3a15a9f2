/** What each route file provides; mount.ts joins them with the contract's route table. */
import type { H3Event } from 'h3';
import type { Environment, EnvironmentUrls, RouteId } from '../../contract/index.ts';
import type { AppDeps } from '../deps.ts';
import type { ErrorStyle } from '../http/errors.ts';

export interface RouteContext {
  env: Environment;
  urls: EnvironmentUrls;
  deps: AppDeps;
}

export interface RouteModule {
  id: RouteId;
  handle(event: H3Event, ctx: RouteContext): Promise<Response>;
  /** Headers on every response of this path, errors, 405 and 429 included. */
  headers?(ctx: RouteContext): Record<string, string>;
  /** Body shape of this route's 400 and 401 answers (contract part 7). */
  errorStyle?: ErrorStyle;
}
