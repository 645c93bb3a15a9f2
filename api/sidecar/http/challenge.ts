/** WWW-Authenticate realms: one protection space per environment, as production and sandbox accept different credentials. */
import type { Environment } from '../../contract/index.ts';

export function realmOf(env: Environment): string {
  return env === 'production' ? 'waitlist' : 'waitlist-sandbox';
}

/** RFC 6749 §5.2 + RFC 9110 §15.5.2: every 401 of the token endpoint carries a Basic challenge. */
export function basicChallenge(env: Environment): string {
  return `Basic realm="${realmOf(env)}", charset="UTF-8"`;
}
