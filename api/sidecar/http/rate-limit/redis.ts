/**
 * Fixed windows shared by every instance in Redis or Valkey (the only importer of ioredis). One
 * atomic Lua script per request; the decision is the in-memory engine's arithmetic (decide), so the
 * answers are exactly those of one process. The time is the instance's clock, passed in: clocks
 * that differ by d shift a window's end by at most d. While the engine cannot answer, decisions come
 * from this instance's memory and no request fails (docs/deploy.md, "When an engine fails").
 */
import { readFile } from 'node:fs/promises';
import { Redis } from 'ioredis';
import type { RateLimitPolicy } from '../../../contract/index.ts';
import { StartupError } from '../../store/errors.ts';
import { urlWithoutPassword } from '../../../log/redact.ts';
import { EngineHealth, TLS_FAILURE } from '../../health/engine-health.ts';
import type { Logger } from '../log.ts';
import type { RateLimitDecision, RateLimitStore } from './decision.ts';
import { MemoryRateLimitStore, decide } from './memory.ts';

const HIT_SCRIPT = `
local now = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
local resetAt = tonumber(redis.call('HGET', KEYS[1], 'r'))
if resetAt == nil or resetAt <= now then
  resetAt = now + window
  redis.call('HSET', KEYS[1], 'c', 1, 'r', resetAt)
  redis.call('PEXPIRE', KEYS[1], window + 1000)
  return {1, resetAt}
end
return {redis.call('HINCRBY', KEYS[1], 'c', 1), resetAt}
`;

/** A request waits at most this long for the engine before it is decided locally (a busy host's pause is no outage). */
const COMMAND_TIMEOUT_MS = 500;
/** After a failed command, requests go straight to the fallback for this long (no pile-up of waits). */
const BACKOFF_MS = 1000;
/** Reconnect attempts back off to at most this interval: readiness follows a returning engine within about a second. */
const MAX_RECONNECT_DELAY_MS = 500;

interface RedisOptions {
  url: string;
  windowSeconds: number;
  maxKeys: number;
  logger: Logger;
  /** Prefix of every key, so one engine can serve several products (default "waitlist:rl:"). */
  keyPrefix?: string;
  /** The CA file that checks a rediss:// server's certificate (REDIS_CA_FILE); unset: the system's CAs. */
  caFile?: string;
}

/** The TLS options for the URL; a CA file that cannot be read, or one without rediss://, stops the start. */
async function tlsOptions(options: RedisOptions): Promise<{ ca: string } | undefined> {
  if (!options.caFile) return undefined;
  if (!options.url.startsWith('rediss:')) {
    throw new StartupError(
      `REDIS_CA_FILE is set but RATE_LIMIT_STORE (${urlWithoutPassword(options.url)}) does not use TLS: ` +
        'write rediss:// to connect over TLS with that CA, or unset REDIS_CA_FILE.',
    );
  }
  try {
    return { ca: await readFile(options.caFile, 'utf8') };
  } catch (error) {
    throw new StartupError(
      `The CA file in REDIS_CA_FILE (${options.caFile}) cannot be read (${(error as NodeJS.ErrnoException).code ?? String(error)}): ` +
        "point REDIS_CA_FILE at the PEM file of the CA that signed the Redis server's certificate, or unset it to use the system's CAs.",
    );
  }
}

export class RedisRateLimitStore implements RateLimitStore {
  readonly #redis: Redis;
  readonly #windowMs: number;
  readonly #prefix: string;
  readonly #fallback: MemoryRateLimitStore;
  readonly health: EngineHealth;
  #retryAt = 0;

  private constructor(redis: Redis, options: RedisOptions) {
    this.#redis = redis;
    this.#windowMs = options.windowSeconds * 1000;
    this.#prefix = options.keyPrefix ?? 'waitlist:rl:';
    this.#fallback = new MemoryRateLimitStore(options);
    this.health = new EngineHealth({
      engine: 'redis',
      logger: options.logger,
      // Like the cause, the line names no address: RATE_LIMIT_STORE says which store is meant.
      meanwhile: 'rate limits count in this process until the store (RATE_LIMIT_STORE) is back',
      affected: 'requests counted in this process',
    });
    // Without a listener ioredis would print each reconnect failure itself.
    redis.removeAllListeners('error').on('error', (error) => this.health.failed(error));
    redis.on('close', () => this.health.failed(new Error('connection closed')));
    redis.on('ready', () => this.#recovered());
  }

  /** Connects and checks the engine once; an engine that cannot be reached stops the start. */
  static async open(options: RedisOptions): Promise<RedisRateLimitStore> {
    let starting = true;
    const tls = await tlsOptions(options);
    const redis = new Redis(options.url, {
      ...(tls ? { tls } : {}),
      lazyConnect: true,
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      commandTimeout: COMMAND_TIMEOUT_MS,
      connectTimeout: 5000,
      // At start one failure is final (the operator gets one clear message); later, retry forever.
      retryStrategy: (times) => (starting ? null : Math.min(times * 100, MAX_RECONNECT_DELAY_MS)),
    });
    let cause: unknown;
    redis.on('error', (error) => (cause ??= error));
    try {
      await redis.connect();
      await redis.ping();
    } catch (error) {
      redis.disconnect();
      cause ??= error;
      const why = (cause as NodeJS.ErrnoException).code ?? (cause instanceof Error ? cause.message : String(cause));
      if (TLS_FAILURE.test(why)) {
        throw new StartupError(
          `The rate-limit store at ${urlWithoutPassword(options.url)} (RATE_LIMIT_STORE) refused the TLS connection (${why}). ` +
            "Check that REDIS_CA_FILE holds the CA that signed the server's certificate and that the URL's host is the one the certificate names.",
        );
      }
      throw new StartupError(
        `The rate-limit store at ${urlWithoutPassword(options.url)} (RATE_LIMIT_STORE) cannot be reached (${why}). ` +
          'Start Redis or Valkey there, correct RATE_LIMIT_STORE (rediss:// for a server that accepts TLS only, as managed ones do, ' +
          'with REDIS_CA_FILE for a private CA), or unset it to keep the rate-limit windows in this process.',
      );
    }
    starting = false;
    return new RedisRateLimitStore(redis, options);
  }

  async hit(policy: RateLimitPolicy, key: string, limit: number, now: number): Promise<RateLimitDecision> {
    if (this.#redis.status === 'ready' && performance.now() >= this.#retryAt) {
      try {
        const reply = await this.#redis.eval(HIT_SCRIPT, 1, `${this.#prefix}${policy}:${key}`, now, this.#windowMs);
        const [count, resetAt] = reply as [number, number];
        // A command that only timed out leaves the connection up: no 'ready' event will say so.
        this.#recovered();
        return decide(count, resetAt, limit, now, this.#windowMs);
      } catch (error) {
        this.#retryAt = performance.now() + BACKOFF_MS;
        this.health.failed(error);
      }
    } else {
      this.health.failed(new Error(`connection ${this.#redis.status}`));
    }
    this.health.requestAffected();
    return this.#fallback.hitNow(policy, key, limit, now);
  }

  async close(): Promise<void> {
    this.health.close();
    this.#redis.removeAllListeners('ready').removeAllListeners('close');
    await this.#redis.quit().catch(() => this.#redis.disconnect());
    await this.#fallback.close();
  }

  #recovered(): void {
    if (this.health.up) return;
    this.#retryAt = 0;
    this.health.succeeded();
  }
}
