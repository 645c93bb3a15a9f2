/** The parts createApp is built from; main.ts wires the real ones, tests their own. */
import type { Config } from '../config.ts';
import type { Environment, EnvironmentUrls } from '../contract/index.ts';
import type { ClientDirectory } from './domain/clients.ts';
import type { Logger } from './http/log.ts';
import type { RateLimitStore } from './http/rate-limit/decision.ts';
import type { TokenKeys } from './store/keys.ts';
import type { WaitlistStore } from './store/waitlist-store.ts';

export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };

export interface AppDeps {
  store: WaitlistStore;
  clock: Clock;
  keys: TokenKeys;
  /** The production clients; the sandbox has its one public client built in. */
  clients: ClientDirectory;
  config: Config;
  logger: Logger;
  /** Rate-limit windows (main.ts picks the engine); default: in this process, from config. */
  limiter?: RateLimitStore;
}

/** What an operation's handler gets besides the request: its environment, that environment's URLs, the app's parts. */
export interface RouteContext {
  env: Environment;
  urls: EnvironmentUrls;
  deps: AppDeps;
}
