/**
 * The front's defences against slow, greedy and malformed clients, from configuration: the
 * deadlines (server.ts), the per-client connection cap (connection-guard.ts), the JSON answers to
 * parser refusals (parser-refusal.ts) and the RateLimit-* memory those answers draw on.
 */
import type { Config } from '../config.ts';
import type { Trusted } from '../net/client-address.ts';
import { guardConnections } from './connection-guard.ts';
import { refuseUnparsed } from './parser-refusal.ts';
import { RateLimitMirror } from './rate-limit-mirror.ts';
import type { ServerLimits } from './server.ts';

export function rateLimitMirror(config: Config): RateLimitMirror {
  return new RateLimitMirror({
    limits: { standard: config.RATE_LIMIT_STANDARD, relaxed: config.RATE_LIMIT_RELAXED },
    windowSeconds: config.RATE_LIMIT_WINDOW_SECONDS,
    ipv6PrefixBits: config.RATE_LIMIT_IPV6_PREFIX,
  });
}

export function clientLimits(config: Config, trusted: Trusted, mirror: RateLimitMirror): ServerLimits {
  return {
    headersTimeoutMs: config.HEADERS_TIMEOUT_MS,
    requestTimeoutMs: config.REQUEST_TIMEOUT_MS,
    keepAliveTimeoutMs: config.KEEP_ALIVE_TIMEOUT_MS,
    prepare(server) {
      guardConnections(server, { maxPerClient: config.MAX_CONNECTIONS_PER_CLIENT, trusted, ipv6PrefixBits: config.RATE_LIMIT_IPV6_PREFIX });
      server.on('clientError', refuseUnparsed(mirror));
    },
  };
}
