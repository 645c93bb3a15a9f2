/**
 * The run's shared engines, for test files (test/support/global-setup.ts starts each on the first
 * file's demand and stops it after the run). A file gets databases (or schemas) of its own on the
 * shared PostgreSQL, and a Redis database number of its own, so files running at the same time
 * never see each other's data.
 */
import { need, type SharedEngineInfo } from '../services.ts';
import { postgresOn, type PostgresEngine } from './postgres.ts';

/**
 * The run's PostgreSQL: createDatabase() and createSchema() as on an engine of one's own. Its
 * stop() leaves the server to the other files; it is stopped, with every database, after the run.
 */
export async function sharedPostgres(): Promise<PostgresEngine> {
  const { port, pid } = await need<SharedEngineInfo>('postgres');
  return postgresOn(port, pid, async () => {});
}

/** The URL of a Redis database of this caller's own (redis://…/n) on the run's shared server. */
export async function sharedRedisUrl(): Promise<string> {
  const { port, database } = await need<SharedEngineInfo>('redis');
  return `redis://127.0.0.1:${port}/${database}`;
}
