/**
 * One engine's health and the story its outages tell in the log, one line each at the start, per
 * summary interval and at the end (docs/deploy.md, "When an engine fails"). The engines report what
 * they see (failed, succeeded, requestAffected); an optional check (a probe) runs on a timer so
 * readiness follows the engine without traffic.
 */
import type { Logger } from '../http/log.ts';
import { redact } from '../../log/redact.ts';
import type { EngineName, EngineState } from '../../metrics/readiness.ts';

/** While an engine is away, one summary line per this interval. */
export const SUMMARY_INTERVAL_MS = 10_000;
/** A check that has not answered by then counts as failed. */
const CHECK_TIMEOUT_MS = 1_000;

interface EngineHealthOptions {
  engine: EngineName;
  logger: Logger;
  /** What the product does while the engine is away, for the first line ("sign-ups answer 500 until it is back"). */
  meanwhile: string;
  /** How the requests an outage touches are counted in the log (default "requests failed"). */
  affected?: string;
  /** Milliseconds since the epoch (tests inject one). */
  now?: () => number;
  /** A probe of the engine: resolves when it can work. Without one, only the engine's reports count. */
  check?: () => Promise<void>;
  /** Interval of the check while the engine is up; unset: checked only while it is down. */
  checkUpMs?: number;
  /** Interval of the check while the engine is down. */
  checkDownMs?: number;
}

export class EngineHealth {
  readonly engine: EngineName;
  readonly #options: EngineHealthOptions;
  readonly #now: () => number;
  #up = true;
  #since: number;
  #lastError: string | null = null;
  #lastFailureAt = -Infinity;
  #affected = 0;
  #summary: NodeJS.Timeout | undefined;
  #checkTimer: NodeJS.Timeout | undefined;
  #closed = false;

  constructor(options: EngineHealthOptions) {
    this.engine = options.engine;
    this.#options = options;
    this.#now = options.now ?? Date.now;
    this.#since = this.#now();
    this.#scheduleCheck();
  }

  /** This health's clock (milliseconds): a `startedAt` for succeeded(). */
  now(): number {
    return this.#now();
  }

  get up(): boolean {
    return this.#up;
  }

  /** The engine could not do some work: the first failure of an outage starts its story. */
  failed(cause: unknown): void {
    this.#lastError = describeCause(cause);
    this.#lastFailureAt = this.#now();
    if (!this.#up) return;
    this.#up = false;
    this.#since = this.#lastFailureAt;
    this.#affected = 0;
    this.#options.logger.error(`${this.engine}: unavailable (${this.#lastError}); ${this.#options.meanwhile}`);
    this.#summary = setInterval(() => {
      const seconds = Math.round((this.#now() - this.#since) / 1000);
      this.#options.logger.error(`${this.engine}: still unavailable after ${seconds} s; ${this.#count()} so far (last error: ${this.#lastError})`);
    }, SUMMARY_INTERVAL_MS).unref();
    this.#scheduleCheck();
  }

  /** The engine did some work begun at `startedAt` (this clock): a failure seen after it wins, so a probe that squeezed through ends no outage. */
  succeeded(startedAt?: number): void {
    if (this.#up || (startedAt !== undefined && this.#lastFailureAt > startedAt)) return;
    const seconds = ((this.#now() - this.#since) / 1000).toFixed(1);
    this.#up = true;
    this.#since = this.#now();
    clearInterval(this.#summary);
    this.#options.logger.info(`${this.engine}: available again after ${seconds} s; ${this.#count()} during the outage`);
    this.#scheduleCheck();
  }

  /** A request met the engine away (it failed, or was served by a fallback): counted, not logged. */
  requestAffected(): void {
    if (!this.#up) this.#affected += 1;
  }

  state(): EngineState {
    return { engine: this.engine, state: this.#up ? 'up' : 'down', since: new Date(this.#since).toISOString(), lastError: this.#lastError };
  }

  close(): void {
    this.#closed = true;
    clearInterval(this.#summary);
    clearTimeout(this.#checkTimer);
  }

  #count(): string {
    return `${this.#affected} ${this.#options.affected ?? 'requests failed'}`;
  }

  #scheduleCheck(): void {
    const { check, checkUpMs, checkDownMs = 500 } = this.#options;
    clearTimeout(this.#checkTimer);
    this.#checkTimer = undefined;
    const every = this.#up ? checkUpMs : checkDownMs;
    if (!check || every === undefined || this.#closed) return;
    this.#checkTimer = setTimeout(() => void this.#runCheck(check), every).unref();
  }

  async #runCheck(check: () => Promise<void>): Promise<void> {
    const startedAt = this.#now();
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<never>((_, reject) => {
      // After a stall of the event loop the timer fires before the answer that came meanwhile is
      // read (timers run before I/O): setImmediate lets that answer in first, so a busy process
      // is not taken for an engine that is away.
      const give = () => reject(new Error(`no answer within ${CHECK_TIMEOUT_MS} ms`));
      timer = setTimeout(() => setImmediate(give), CHECK_TIMEOUT_MS);
    });
    try {
      await Promise.race([check(), late]);
      this.succeeded(startedAt);
    } catch (error) {
      if (!this.#closed) this.failed(error);
    } finally {
      clearTimeout(timer);
    }
    this.#scheduleCheck();
  }
}

/**
 * What an engine's wrapper throws when the engine cannot do the work (PostgreSQL unreachable, no
 * pool connection free in time, the disk refusing a write): the request answers the contract's 500
 * without a line of its own (http/api-layer.ts), as the engine's health tells the outage.
 */
export class EngineUnavailableError extends Error {
  readonly health: EngineHealth;

  constructor(health: EngineHealth, cause: unknown) {
    super(`${health.engine} unavailable: ${describeCause(cause)}`, { cause });
    this.name = 'EngineUnavailableError';
    this.health = health;
  }
}

/** A cause that is a TLS failure: the start-up messages then name the settings that decide it. */
export const TLS_FAILURE = /certificate|self.signed|SSL|TLS|EPROTO|UNABLE_TO_|DEPTH_ZERO|encryption/i;

/** IPv4, bracketed or bare IPv6, and host:port spellings: a cause names no address. */
const ADDRESS = /\[[0-9a-f:.]+\](:\d+)?|\b\d{1,3}(\.\d{1,3}){3}(:\d+)?\b|\b[0-9a-f]{1,4}(:[0-9a-f]{0,4}){2,7}\b|\b[\w-]+(\.[\w-]+)*:\d{2,5}\b/gi;
/** Paths in Node's errno messages ("open '/srv/data/…'"). */
const QUOTED_PATH = /'[^']*'/g;

/** One short phrase for the log: the errno code with its meaning, or the engine's message with its SQLSTATE; never an address, path or password. */
export function describeCause(cause: unknown): string {
  if (cause instanceof EngineUnavailableError) return describeCause(cause.cause);
  const error = cause as { code?: unknown; message?: unknown } | undefined;
  const code = typeof error?.code === 'string' ? error.code : undefined;
  const message = typeof error?.message === 'string' ? error.message : String(cause);
  const clean = redact(message.replace(QUOTED_PATH, '').replace(ADDRESS, '').replace(/\s+/g, ' ').replace(/[\s,:]+$/, '').trim());
  if (code && /^E[A-Z]+$/.test(code)) {
    // Node's errno messages repeat the code first: "connect ECONNREFUSED", "ENOSPC: no space left on device, write".
    const meaning = clean.replace(new RegExp(`^(\\w+ )?${code}:? ?`), '').trim();
    return meaning ? `${code} (${meaning})` : code;
  }
  if (code && /^[0-9A-Z]{5}$/.test(code)) return `${clean} (SQLSTATE ${code})`;
  return code ? `${clean} (${code})` : clean || 'unknown error';
}
