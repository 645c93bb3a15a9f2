/**
 * WWW-Authenticate challenges. One protection space per environment, since production and sandbox
 * accept different credentials: realm "waitlist" and "waitlist-sandbox".
 */
import type { Environment } from '../../contract/index.ts';

function realmOf(env: Environment): string {
  return env === 'production' ? 'waitlist' : 'waitlist-sandbox';
}

/** RFC 6749 §5.2 + RFC 9110 §15.5.2: every 401 of the token endpoint carries a Basic challenge. */
export function basicChallenge(env: Environment): string {
  return `Basic realm="${realmOf(env)}", charset="UTF-8"`;
}

/**
 * RFC 6750 §3 + RFC 9728 §5.1: `error` only when a token was presented, `scope` with
 * insufficient_scope, and always the pointer to the protected resource metadata.
 */
export function bearerChallenge(
  env: Environment,
  resourceMetadata: string,
  failure?: { error: 'invalid_token' } | { error: 'insufficient_scope'; scope: string },
): string {
  const params = [`realm="${realmOf(env)}"`];
  if (failure) params.push(`error="${failure.error}"`);
  if (failure?.error === 'insufficient_scope') params.push(`scope="${failure.scope}"`);
  params.push(`resource_metadata="${resourceMetadata}"`);
  return `Bearer ${params.join(', ')}`;
}
