/**
 * The PostgreSQL engine's probe: one connection of its own, outside the pool, so a pool busy with
 * slow queries never looks like an engine that is away (and an engine that is away never hides
 * behind a busy pool). `SELECT 1` on it is the check; a connection that breaks is dropped, reported
 * at once (a server stopped at once closes it, so readiness follows in milliseconds) and made anew
 * by the next check.
 */
import pg from 'pg';

/**
 * A check's connection attempt and its query each give up after this long; the health decides
 * sooner (its own check timeout), this only frees a connection that hangs.
 */
const PROBE_TIMEOUT_MS = 2_000;

export class PostgresProbe {
  readonly #config: pg.ClientConfig;
  #client: pg.Client | undefined;
  /** Told when the probe's open connection breaks between checks. */
  onBroken: ((error: Error) => void) | undefined;

  constructor(config: pg.ClientConfig) {
    this.#config = config;
  }

  async check(): Promise<void> {
    let client = this.#client;
    if (!client) {
      const fresh = new pg.Client({ ...this.#config, connectionTimeoutMillis: PROBE_TIMEOUT_MS, query_timeout: PROBE_TIMEOUT_MS });
      fresh.on('error', (error) => this.#broken(fresh, error));
      try {
        await fresh.connect();
      } catch (error) {
        await fresh.end().catch(() => {});
        throw error;
      }
      this.#client = client = fresh;
    }
    try {
      await client.query('SELECT 1');
    } catch (error) {
      this.#drop(client);
      throw error;
    }
  }

  async close(): Promise<void> {
    const client = this.#client;
    this.#client = undefined;
    await client?.end().catch(() => {});
  }

  #broken(client: pg.Client, error: Error): void {
    if (this.#client !== client) return;
    this.#drop(client);
    this.onBroken?.(error);
  }

  #drop(client: pg.Client): void {
    if (this.#client === client) this.#client = undefined;
    void client.end().catch(() => {});
  }
}
