/**
 * A condition that can happen on every request (the PostgreSQL pool full under load) without
 * being an outage: the first occurrence is logged at once, later ones are counted and summed up in
 * at most one line per interval, so an overload is visible without writing a line per request.
 */
import type { Logger } from '../http/log.ts';

export class ThrottledLine {
  readonly #logger: Logger;
  readonly #everyMs: number;
  readonly #line: (count: number, seconds: number) => string;
  #count = 0;
  #timer: NodeJS.Timeout | undefined;

  constructor(logger: Logger, everyMs: number, line: (count: number, seconds: number) => string) {
    this.#logger = logger;
    this.#everyMs = everyMs;
    this.#line = line;
  }

  hit(): void {
    if (this.#timer) {
      this.#count += 1;
      return;
    }
    this.#logger.error(this.#line(1, 0));
    this.#timer = setInterval(() => this.#flush(), this.#everyMs).unref();
  }

  close(): void {
    clearInterval(this.#timer);
  }

  #flush(): void {
    if (this.#count === 0) {
      clearInterval(this.#timer);
      this.#timer = undefined;
      return;
    }
    this.#logger.error(this.#line(this.#count, Math.round(this.#everyMs / 1000)));
    this.#count = 0;
  }
}
