/** Spaces sends to at most `perSecond` messages per second across every worker (0: no limit). */
export class Pace {
  readonly #interval: number;
  #next = 0;

  constructor(perSecond: number) {
    this.#interval = perSecond > 0 ? 1000 / perSecond : 0;
  }

  /** Resolves when the caller may send its next message. */
  async take(): Promise<void> {
    if (this.#interval === 0) return;
    const now = performance.now();
    const slot = Math.max(now, this.#next);
    this.#next = slot + this.#interval;
    if (slot > now) await new Promise((done) => setTimeout(done, slot - now));
  }
}
