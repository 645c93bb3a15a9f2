/**
 * The same contract tests over both storage engines:
 * `describeEachBackend(title, (backend) => …)` runs its body once on the JSON store and once on
 * PostgreSQL (the run's shared throwaway server, a fresh schema per harness); pass `backend` to
 * harness(). Without PostgreSQL the second run is skipped by name (REQUIRE_ENGINES=1: a failure).
 */
import pg from 'pg';
import { beforeAll, describe } from 'vitest';
import type { Config } from '../../../api/config.ts';
import type { ClientRecord, ClientRegistry } from '../../../api/sidecar/domain/clients.ts';
import type { WaitlistRecord } from '../../../api/sidecar/domain/record.ts';
import { openBackend } from '../../../api/sidecar/store/open-backend.ts';
import { recordFromRow } from '../../../api/sidecar/store/postgres/record-row.ts';
import type { WaitlistStore } from '../../../api/sidecar/store/waitlist-store.ts';
import { postgresBinDir, type PostgresEngine } from '../../support/engines/postgres.ts';
import { sharedPostgres } from '../../support/engines/shared.ts';
import { describeWithEngine } from '../../support/engines/require.ts';

/** What harness() needs from an engine other than its default JSON store. */
export interface OpenedBackend {
  store: WaitlistStore & { readonly commits: number };
  clients: ClientRegistry;
  /** Every record as committed, read over a connection of its own (what survives a crash). */
  durableRecords(): Promise<WaitlistRecord[]>;
  /** Makes every later write fail (the JSON harness removes its directory). */
  breakStore(): Promise<void>;
  close(): Promise<void>;
}

export interface TestBackend {
  engine: 'json' | 'postgres';
  /** Undefined for JSON: harness() builds its JSON store itself. */
  open?(config: Config, client: ClientRecord): Promise<OpenedBackend>;
}

export const JSON_BACKEND: TestBackend = { engine: 'json' };

/** The run's shared PostgreSQL for the enclosing suite (each harness takes a fresh schema on it). */
export function usePostgres(): () => PostgresEngine {
  let engine: PostgresEngine | undefined;
  beforeAll(async () => {
    engine = await sharedPostgres();
  });
  return () => {
    if (!engine) throw new Error('PostgreSQL is not reached: call usePostgres() inside a describe');
    return engine;
  };
}

function postgresBackend(engine: () => PostgresEngine): TestBackend {
  return {
    engine: 'postgres',
    async open(config, client) {
      const url = await engine().createSchema();
      const backend = await openBackend({ ...config, DATABASE_URL: url });
      await backend.clients.create(client);
      const reader = new pg.Pool({ connectionString: url, max: 1 });
      // The server is stopped after the suite; an idle connection's end must not be an unhandled error.
      reader.on('error', () => {});
      return {
        store: backend.store as OpenedBackend['store'],
        clients: backend.clients,
        async durableRecords() {
          const { rows } = await reader.query('SELECT * FROM waitlist ORDER BY created_at, email');
          return rows.map(recordFromRow);
        },
        async breakStore() {
          await reader.query('ALTER TABLE waitlist RENAME TO waitlist_gone');
        },
        async close() {
          await reader.end();
          await backend.close();
        },
      };
    },
  };
}

export function describeEachBackend(title: string, body: (backend: TestBackend) => void): void {
  describe(`${title} (JSON store)`, () => body(JSON_BACKEND));
  describeWithEngine('PostgreSQL', postgresBinDir(), `${title} (PostgreSQL store)`, () => {
    body(postgresBackend(usePostgres()));
  });
}
