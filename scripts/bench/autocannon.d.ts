// The part of autocannon 8's API the benchmarks use (the package ships no types).
declare module 'autocannon' {
  export interface Options {
    url: string;
    /** A Unix socket to connect to instead of the URL's host and port. */
    socketPath?: string;
    connections?: number;
    duration?: number;
    /** Requests sent in turn; `setupRequest` may rewrite each (a fresh body per request). */
    requests?: { method?: string; path?: string; headers?: Record<string, string>; body?: string; setupRequest?(request: object): object }[];
  }
  export interface Result {
    requests: { total: number };
    errors: number;
    timeouts: number;
    non2xx: number;
  }
  /** A running load: awaitable for the result, and an emitter of each answer as it comes. */
  export interface Instance extends PromiseLike<Result> {
    /** `ms`: the answer's exact duration (fractional milliseconds). */
    on(event: 'response', listener: (client: unknown, statusCode: number, bytes: number, ms: number) => void): this;
  }
  function autocannon(options: Options): Instance;
  export default autocannon;
}
