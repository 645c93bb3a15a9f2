/**
 * The operation a request belongs to, for metric labels: the contract's route id for the API
 * (api/contract/routes.ts), `site` for pages and files. A bounded set, so label cardinality stays
 * bounded however many paths clients invent.
 */
import { ENV_PREFIX, MCP_ROUTE, ROUTES } from '../contract/index.ts';

export interface Operation {
  /** A route id, `unknown` for an API path the contract does not have, or `site`. */
  operation: string;
  environment: 'production' | 'sandbox' | 'none';
}

const byPath = new Map<string, string>([...ROUTES, MCP_ROUTE].map((route) => [route.path, route.id]));

export function operationOf(target: string, isApi: boolean): Operation {
  if (!isApi) return { operation: 'site', environment: 'none' };
  const path = target.split('?', 1)[0];
  const sandbox = path === ENV_PREFIX.sandbox || path.startsWith(`${ENV_PREFIX.sandbox}/`);
  const own = sandbox ? path.slice(ENV_PREFIX.sandbox.length) : path;
  return { operation: byPath.get(own) ?? 'unknown', environment: sandbox ? 'sandbox' : 'production' };
}

/** Route ids whose success means a sign-up was accepted (stored, updated or silently discarded). */
export const SIGNUP_OPERATIONS = new Set<string>(ROUTES.filter((route) => route.tag === 'Waitlist').map((route) => route.id));
