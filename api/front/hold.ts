/**
 * The waiting room for API requests that never reached a sidecar: none was known (the supervisor
 * is starting a new one), or connecting was refused or found no socket. Such a request was not
 * processed, so forwarding it later is safe even for a POST. It waits here for at most `holdMs`
 * (SIDECAR_HOLD_MS) while a sidecar comes up, and is tried again every TICK_MS; when the time is
 * up it is answered the contract's 500 after all. A request the sidecar received and did not
 * answer is never held (exchange.ts): it may have been processed.
 */

/** How often held requests look for a sidecar again. */
const TICK_MS = 20;
/**
 * At most this many requests wait at once (each holds a client connection and up to one body of
 * BODY_LIMIT_BYTES); one more is answered 500 at once.
 */
export const MAX_HELD = 1_024;

export interface HoldEvents {
  /** A request starts waiting (counted once per request, however many tries it takes). */
  held(): void;
  /** A request that never reached a sidecar is answered 500: the time was up or the room full. */
  dropped(): void;
}

export interface Waiting {
  /** Milliseconds (the room's clock) after which the request is given up. */
  deadline: number;
  /** Whether it was counted as held already. */
  counted: boolean;
  /** The client went away: nothing to forward any more. */
  gone(): boolean;
  /** Tries again now. */
  retry(): void;
  /** Answers the 500. */
  giveUp(): void;
}

export interface HoldRoom {
  /** Holds a request, or gives it up at once (no hold time, room full, time up). */
  hold(entry: Waiting): void;
  /** The deadline for a request that starts waiting now. */
  deadlineFromNow(): number;
  /** Answers a request that cannot wait (its body cannot be sent again): counted as dropped. */
  giveUp(entry: Waiting): void;
}

export function holdRoom(holdMs: number, events: Partial<HoldEvents> = {}, now: () => number = () => performance.now()): HoldRoom {
  let waiting: Waiting[] = [];
  let timer: NodeJS.Timeout | undefined;

  function giveUp(entry: Waiting): void {
    events.dropped?.();
    entry.giveUp();
  }

  function tick(): void {
    const due = waiting;
    waiting = [];
    const at = now();
    for (const entry of due) {
      if (entry.gone()) continue;
      // A retry that meets a refusal again comes back through hold() into the next tick's list.
      if (at >= entry.deadline) giveUp(entry);
      else entry.retry();
    }
    if (!waiting.length) {
      clearInterval(timer);
      timer = undefined;
    }
  }

  return {
    deadlineFromNow: () => now() + holdMs,
    giveUp,
    hold(entry) {
      if (entry.gone()) return;
      if (holdMs <= 0 || now() >= entry.deadline || waiting.length >= MAX_HELD) return giveUp(entry);
      if (!entry.counted) {
        entry.counted = true;
        events.held?.();
      }
      waiting.push(entry);
      timer ??= setInterval(tick, TICK_MS);
    },
  };
}
