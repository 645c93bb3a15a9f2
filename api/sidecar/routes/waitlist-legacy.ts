/**
 * Operation 5: the deprecated unversioned alias of operation 3. It behaves exactly like it and
 * says so on every response: `Deprecation` (RFC 9745) and a successor-version link.
 */
import { ENV_PREFIX, routeById } from '../../contract/index.ts';
import type { RouteModule } from './route-module.ts';
import { handleSignup } from './waitlist.ts';

/** When POST /api/waitlist was deprecated: 2026-01-01T00:00:00Z. */
export const LEGACY_WAITLIST_DEPRECATED_AT = Date.UTC(2026, 0, 1) / 1000;

const successor = routeById('joinWaitlistLegacy').deprecated!.successor;

export const joinWaitlistLegacy: RouteModule = {
  id: 'joinWaitlistLegacy',
  handle: handleSignup,
  headers: ({ env }) => ({
    // RFC 9745 §2.1: an RFC 9651 Date, i.e. "@" and Unix seconds.
    deprecation: `@${LEGACY_WAITLIST_DEPRECATED_AT}`,
    link: `<${ENV_PREFIX[env]}${successor}>; rel="successor-version"`,
  }),
};
