/**
 * The error an engine's wrapper throws when the engine cannot do the work (PostgreSQL unreachable,
 * no pool connection free in time, the JSON store's disk refusing a write). It is expected: the
 * engine's health (engine-health.ts) tells the outage's story in the log, so the request path
 * answers the contract's 500 internal_error without a line of its own (http/failure.ts).
 */
import { redact } from '../../log/redact.ts';
import type { EngineName } from '../../metrics/readiness.ts';

/** What a request that met the outage tells the engine's health (engine-health.ts): it counts it. */
interface OutageCounter {
  readonly engine: EngineName;
  requestAffected(): void;
}

export class EngineUnavailableError extends Error {
  readonly health: OutageCounter;

  constructor(health: OutageCounter, cause: unknown) {
    super(`${health.engine} unavailable: ${describeCause(cause)}`, { cause });
    this.name = 'EngineUnavailableError';
    this.health = health;
  }
}

/** IPv4, bracketed or bare IPv6, and host:port spellings: a cause names no address. */
const ADDRESS = /\[[0-9a-f:.]+\](:\d+)?|\b\d{1,3}(\.\d{1,3}){3}(:\d+)?\b|\b[0-9a-f]{1,4}(:[0-9a-f]{0,4}){2,7}\b|\b[\w-]+(\.[\w-]+)*:\d{2,5}\b/gi;
/** Paths in Node's errno messages ("open '/srv/data/…'"). */
const QUOTED_PATH = /'[^']*'/g;

/**
 * One short phrase for the log: the errno code with its meaning (ECONNREFUSED, ENOSPC), or the
 * engine's own message with its SQLSTATE; never an address, a path or a password.
 */
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
