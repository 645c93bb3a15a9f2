/**
 * Operation 5: the deprecated unversioned alias of operation 3. It behaves exactly like it and
 * says so on every response: `Deprecation` (RFC 9745) and a successor-version link.
 */
import { routeHeaders } from '../../contract/index.ts';
import type { RouteModule } from './route-module.ts';
import { handleSignup } from './waitlist.ts';

export { LEGACY_WAITLIST_DEPRECATED_AT } from '../../contract/index.ts';

export const joinWaitlistLegacy: RouteModule = {
  id: 'joinWaitlistLegacy',
  handle: handleSignup,
  headers: ({ env }) => routeHeaders('joinWaitlistLegacy', env),
};
