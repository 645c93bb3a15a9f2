/**
 * The front's defences against slow, greedy and malformed clients, from configuration: the
 * deadlines (server.ts), the per-client connection cap (connection-guard.ts), the answers to
 * parser refusals (parser-refusal.ts), to CONNECT and to unknown expectations, and the RateLimit-*
 * memory the front's own answers draw on.
 */
import type { Config } from '../config.ts';
import type { Trusted } from '../net/client-address.ts';
import { guardConnections } from './connection-guard.ts';
import type { Tracker } from './log.ts';
import { refuseUnparsed } from './parser-refusal.ts';
import { RateLimitMirror } from './rate-limit-mirror.ts';
import type { ServerLimits } from './server.ts';
import { answerConnect } from './socket-exchange.ts';

export function rateLimitMirror(config: Config): RateLimitMirror {
  return new RateLimitMirror({
    limits: { standard: config.RATE_LIMIT_STANDARD, relaxed: config.RATE_LIMIT_RELAXED },
    windowSeconds: config.RATE_LIMIT_WINDOW_SECONDS,
    ipv6PrefixBits: config.RATE_LIMIT_IPV6_PREFIX,
  });
}

export function clientLimits(config: Config, trusted: Trusted, mirror: RateLimitMirror, track?: Tracker): ServerLimits {
  return {
    headersTimeoutMs: config.HEADERS_TIMEOUT_MS,
    requestTimeoutMs: config.REQUEST_TIMEOUT_MS,
    keepAliveTimeoutMs: config.KEEP_ALIVE_TIMEOUT_MS,
    prepare(server, handler) {
      guardConnections(server, { maxPerClient: config.MAX_CONNECTIONS_PER_CLIENT, trusted, ipv6PrefixBits: config.RATE_LIMIT_IPV6_PREFIX });
      server.on('clientError', refuseUnparsed({ mirror, handler, track }));
      server.on('connect', answerConnect(handler));
      // RFC 9110 §10.1.1: an expectation other than 100-continue may be ignored, and is: node:http's
      // own answer would be a bare 417, a status the contract does not have. The request is
      // answered as if it had no Expect field (which is not forwarded: forward-headers.ts).
      server.on('checkExpectation', handler);
    },
  };
}
