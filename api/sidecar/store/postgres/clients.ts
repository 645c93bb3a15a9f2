/** The production OAuth clients in PostgreSQL, read on each token request: a change counts on every instance at once. */
import type pg from 'pg';
import { authenticateAgainst, ClientRecord, type AuthenticatedClient, type ClientRegistry } from '../../domain/clients.ts';
import type { Guard } from './engine-watch.ts';

type Row = { id: string; name: string; created_at: Date; scopes: string[]; secret_hash: string };

function recordFromRow(row: Row): ClientRecord {
  return ClientRecord.parse({ id: row.id, name: row.name, createdAt: row.created_at.toISOString(), scopes: row.scopes, secretHash: row.secret_hash });
}

export const COLUMNS = 'id, name, created_at, scopes, secret_hash';

/** The parameters $1–$5 of an insert of COLUMNS. */
export function clientParams(record: ClientRecord): unknown[] {
  return [record.id, record.name, record.createdAt, record.scopes, record.secretHash];
}

export class PostgresClients implements ClientRegistry {
  readonly #db: pg.Pool;
  readonly #guard: Guard;

  /** `guard`: what the sidecar's token requests do when the engine is away (engine-watch.ts). */
  constructor(db: pg.Pool, guard: Guard = (work) => work()) {
    this.#db = db;
    this.#guard = guard;
  }

  async authenticate(id: string, secret: string): Promise<AuthenticatedClient | undefined> {
    const { rows } = await this.#guard(() => this.#db.query<Row>(`SELECT ${COLUMNS} FROM oauth_clients WHERE id = $1`, [id]));
    return authenticateAgainst(rows.map(recordFromRow), id, secret);
  }

  async list(): Promise<ClientRecord[]> {
    const { rows } = await this.#db.query<Row>(`SELECT ${COLUMNS} FROM oauth_clients ORDER BY created_at, id`);
    return rows.map(recordFromRow);
  }

  /** Adds a client (ids are 96 random bits: a clash is an error, not an overwrite). */
  async create(record: ClientRecord): Promise<void> {
    await this.#db.query(`INSERT INTO oauth_clients (${COLUMNS}) VALUES ($1, $2, $3, $4, $5)`, clientParams(record));
  }

  async delete(id: string): Promise<boolean> {
    const { rowCount } = await this.#db.query('DELETE FROM oauth_clients WHERE id = $1', [id]);
    return (rowCount ?? 0) > 0;
  }
}
