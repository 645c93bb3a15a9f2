/**
 * RateLimit-* fields for the answers the front gives itself (sidecar down, parser refusals,
 * timeouts), when no sidecar counted the request.
 *
 * The sidecar owns the counting. The front remembers, per client bucket and policy, the last
 * RateLimit-Remaining and -Reset the sidecar sent that client, and ages them with its clock: its
 * own answers repeat them, counting nothing (the request never reached the counter). A client the
 * front has no record of, or whose window has ended, is shown a fresh window: what the sidecar
 * itself would show if it has not counted that client (after a restart, its memory table is empty
 * too). The table holds at most `maxEntries` clients; the oldest record goes first.
 */
import { rateLimitPolicy, type RateLimitPolicy } from '../contract/index.ts';
import { addressBucket } from '../net/client-address.ts';
import { decodeUnreserved } from './request-path.ts';

export interface MirrorOptions {
  limits: Record<RateLimitPolicy, number>;
  windowSeconds: number;
  ipv6PrefixBits: number;
  maxEntries?: number;
  /** Milliseconds; injectable for tests. */
  now?: () => number;
}

interface Seen {
  remaining: number;
  resetAt: number;
}

export class RateLimitMirror {
  readonly #options: MirrorOptions;
  readonly #now: () => number;
  readonly #max: number;
  readonly #seen = new Map<string, Seen>();

  constructor(options: MirrorOptions) {
    this.#options = options;
    this.#now = options.now ?? Date.now;
    this.#max = options.maxEntries ?? 10_000;
  }

  get size(): number {
    return this.#seen.size;
  }

  /** The key of one request: its client's bucket and its policy. */
  key(client: string | undefined, target: string, method: string): string {
    const path = decodeUnreserved(target.split('?', 1)[0]);
    return `${rateLimitPolicy(path, method)} ${addressBucket(client, this.#options.ipv6PrefixBits)}`;
  }

  /** Remembers what the sidecar told this client. */
  note(key: string, remaining: string | string[] | undefined, reset: string | string[] | undefined): void {
    const r = Number(remaining);
    const s = Number(reset);
    if (!Number.isInteger(r) || !Number.isInteger(s) || r < 0 || s < 0) return;
    this.#seen.delete(key);
    if (this.#seen.size >= this.#max) this.#seen.delete(this.#seen.keys().next().value!);
    this.#seen.set(key, { remaining: r, resetAt: this.#now() + s * 1000 });
  }

  /** The four RateLimit-* fields for an answer the front gives itself. */
  fields(key: string): string[] {
    const policy = key.slice(0, key.indexOf(' ')) as RateLimitPolicy;
    const limit = this.#options.limits[policy];
    const window = this.#options.windowSeconds;
    const now = this.#now();
    const seen = this.#seen.get(key);
    const live = seen && seen.resetAt > now;
    return [
      'RateLimit-Limit', String(limit),
      'RateLimit-Remaining', String(live ? seen.remaining : limit),
      'RateLimit-Reset', String(live ? Math.max(1, Math.ceil((seen.resetAt - now) / 1000)) : window),
      'RateLimit-Policy', `${limit};w=${window}`,
    ];
  }
}
