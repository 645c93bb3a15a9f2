/**
 * TLS to managed engines, against a PostgreSQL with ssl=on and a redis-server on a TLS port, with
 * certificates made for the run: the right CA connects (and the connection is TLS); a wrong CA,
 * or a plain connection to a server that takes TLS only, stops the start with one paragraph that
 * names the setting to look at. sslmode means what libpq documents.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openRateLimitStore } from '../../api/sidecar/http/rate-limit/index.ts';
import { silentLogger } from '../../api/sidecar/http/log.ts';
import { StartupError } from '../../api/sidecar/store/errors.ts';
import { openBackend } from '../../api/sidecar/store/open-backend.ts';
import { clientConfig } from '../../api/sidecar/store/postgres/pool.ts';
import type { PostgresEngine } from '../support/engines/postgres.ts';
import { postgresBinDir } from '../support/engines/postgres.ts';
import { REDIS_BINARY } from '../support/engines/redis.ts';
import { describeWithEngine } from '../support/engines/require.ts';
import { makeCertificates, removeCertificates, startTlsPostgres, startTlsRedis, type Certificates, type TlsRedis } from '../support/engines/tls.ts';
import { testConfig } from './support/harness.ts';

let certs: Certificates;
beforeAll(async () => {
  certs = await makeCertificates();
});
afterAll(() => certs && removeCertificates(certs));

/** The StartupError's message, or 'started'. */
async function startMessage(open: () => Promise<{ close(): Promise<void> }>): Promise<string> {
  try {
    await (await open()).close();
    return 'started';
  } catch (error) {
    expect(error).toBeInstanceOf(StartupError);
    return (error as Error).message;
  }
}

describeWithEngine('PostgreSQL', postgresBinDir(), 'TLS to PostgreSQL (sslmode in DATABASE_URL, PGSSLROOTCERT)', () => {
  let engine: PostgresEngine;
  let base: string;

  beforeAll(async () => {
    engine = await startTlsPostgres(certs);
    base = await engine.createDatabase();
  });
  afterAll(() => engine?.stop());

  const open = (url: string, env: Record<string, string> = {}) => () => openBackend(testConfig({ DATABASE_URL: url, ...env }));
  const encrypted = async (url: string, rootCert?: string) => {
    const client = new pg.Client(clientConfig(url, rootCert));
    await client.connect();
    try {
      return (await client.query('SELECT ssl FROM pg_stat_ssl WHERE pid = pg_backend_pid()')).rows[0].ssl;
    } finally {
      await client.end();
    }
  };

  it('tls postgres: verify-full and verify-ca with the right CA (sslrootcert or PGSSLROOTCERT) connect over TLS', async () => {
    expect(await startMessage(open(`${base}?sslmode=verify-full&sslrootcert=${certs.ca}`))).toBe('started');
    expect(await startMessage(open(`${base}?sslmode=verify-ca`, { PGSSLROOTCERT: certs.ca }))).toBe('started');
    expect(await encrypted(`${base}?sslmode=verify-full`, certs.ca)).toBe(true);
  });

  it('tls postgres: sslmode=require encrypts without checking the certificate when no CA is given, as libpq does', async () => {
    expect(await startMessage(open(`${base}?sslmode=require`))).toBe('started');
    expect(await encrypted(`${base}?sslmode=require`)).toBe(true);
  });

  it('tls postgres: a wrong CA stops the start with one paragraph naming DATABASE_URL and PGSSLROOTCERT, for require, verify-ca and verify-full', async () => {
    for (const mode of ['require', 'verify-ca', 'verify-full']) {
      const message = await startMessage(open(`${base}?sslmode=${mode}`, { PGSSLROOTCERT: certs.otherCa }));
      expect(message).toMatch(/^The PostgreSQL database at postgres:\/\/\S+ \(DATABASE_URL\) cannot be reached over TLS: .*certificate.*PGSSLROOTCERT/);
      expect(message).not.toContain("\n");
    }
  });

  it('tls postgres: a plain connection to a server that takes TLS only stops the start, naming DATABASE_URL and sslmode', async () => {
    const message = await startMessage(open(base));
    expect(message).toMatch(/^The PostgreSQL database at \S+ \(DATABASE_URL\) cannot be reached over TLS: .*no encryption.*Check sslmode in DATABASE_URL/);
    expect(message).not.toMatch(/\n|127\.0\.0\.1"/);
  });
});

describeWithEngine('redis-server', REDIS_BINARY, 'TLS to Redis (rediss:// and REDIS_CA_FILE)', () => {
  let redis: TlsRedis;
  beforeAll(async () => {
    redis = await startTlsRedis(certs);
  });
  afterAll(() => redis?.stop());

  const open = (url: string, caFile?: string) => () =>
    openRateLimitStore({ RATE_LIMIT_WINDOW_SECONDS: 60, RATE_LIMIT_MAX_CLIENTS: 10, RATE_LIMIT_STORE: url, REDIS_CA_FILE: caFile }, silentLogger);

  it('tls redis: rediss:// with the right CA in REDIS_CA_FILE connects and counts there', async () => {
    const store = await open(redis.url, certs.ca)();
    try {
      const now = Date.now();
      await store.hit('standard', '192.0.2.1', 5, now);
      expect(await store.hit('standard', '192.0.2.1', 5, now)).toMatchObject({ remaining: 3 });
      expect(store.health?.up).toBe(true);
    } finally {
      await store.close();
    }
  });

  it('tls redis: a wrong CA stops the start with one paragraph naming REDIS_CA_FILE', async () => {
    const message = await startMessage(open(redis.url, certs.otherCa));
    expect(message).toMatch(/^The rate-limit store at rediss:\/\/\S+ \(RATE_LIMIT_STORE\) refused the TLS connection .*REDIS_CA_FILE/);
    expect(message).not.toContain("\n");
  });

  it('tls redis: a plain redis:// to a TLS-only server stops the start, pointing at rediss:// in RATE_LIMIT_STORE', async () => {
    const message = await startMessage(open(redis.url.replace('rediss:', 'redis:')));
    expect(message).toMatch(/^The rate-limit store at redis:\/\/\S+ \(RATE_LIMIT_STORE\) cannot be reached .*rediss:\/\//);
  });

  it('tls redis: REDIS_CA_FILE with a redis:// URL, or a CA file that does not exist, stops the start naming the variables', async () => {
    expect(await startMessage(open(redis.url.replace('rediss:', 'redis:'), certs.ca))).toMatch(/^REDIS_CA_FILE is set but RATE_LIMIT_STORE .* does not use TLS/);
    expect(await startMessage(open(redis.url, `${certs.dir}/missing.crt`))).toMatch(/^The CA file in REDIS_CA_FILE \(.*missing\.crt\) cannot be read \(ENOENT\)/);
  });
});

describe('tls settings', () => {
  it('tls postgres: an sslmode in DATABASE_URL is read with libpq semantics, PGSSLROOTCERT only where TLS is asked for', () => {
    expect(clientConfig('postgres://u@h/db?sslmode=require', '/ca.pem').connectionString).toBe('postgres://u@h/db?sslmode=require&uselibpqcompat=true&sslrootcert=%2Fca.pem');
    expect(clientConfig('postgres://u@h/db', '/ca.pem').connectionString).toBe('postgres://u@h/db');
    expect(clientConfig('postgres://u@h/db?sslmode=disable', '/ca.pem').connectionString).toBe('postgres://u@h/db?sslmode=disable&uselibpqcompat=true');
    expect(clientConfig('postgres://u@h/db?sslmode=verify-full&sslrootcert=/own.pem', '/ca.pem').connectionString).toBe(
      'postgres://u@h/db?sslmode=verify-full&sslrootcert=%2Fown.pem&uselibpqcompat=true',
    );
  });
});
