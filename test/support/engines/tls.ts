/**
 * Engines that speak TLS, for the tests of managed-engine settings: certificates made at test time
 * with openssl (a CA, a server certificate for 127.0.0.1 and localhost signed by it, and a second,
 * unrelated CA), a PostgreSQL started with ssl=on that takes TLS connections only for every
 * database but `postgres` (where the helper's own set-up connects), and a redis-server that
 * listens on a TLS port only. Each is stopped by its PID.
 */
import { execFileSync, spawn } from 'node:child_process';
import { chmod, chown, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../stack.ts';
import { startPostgres, type PostgresEngine } from './postgres.ts';
import { REDIS_BINARY } from './redis.ts';

export interface Certificates {
  dir: string;
  /** The CA that signed the servers' certificate. */
  ca: string;
  /** A CA that signed nothing the servers present. */
  otherCa: string;
  cert: string;
  key: string;
}

const openssl = (dir: string, args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: ['ignore', 'ignore', 'pipe'] });
const EC = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];

/** In a new temp dir; as root it belongs to `postgres`, which must read the key (mode 0600). */
export async function makeCertificates(): Promise<Certificates> {
  const dir = await mkdtemp(join(tmpdir(), 'tls-engines-'));
  for (const name of ['ca', 'other-ca']) {
    openssl(dir, ['req', '-x509', ...EC, '-keyout', `${name}.key`, '-out', `${name}.crt`, '-days', '1', '-subj', `/CN=${name} for tests`]);
  }
  openssl(dir, ['req', ...EC, '-keyout', 'server.key', '-out', 'server.csr', '-subj', '/CN=localhost']);
  await writeFile(join(dir, 'san.ext'), 'subjectAltName=IP:127.0.0.1,DNS:localhost\n');
  openssl(dir, ['x509', '-req', '-in', 'server.csr', '-CA', 'ca.crt', '-CAkey', 'ca.key', '-CAcreateserial', '-out', 'server.crt', '-days', '1', '-extfile', 'san.ext']);
  await chmod(join(dir, 'server.key'), 0o600);
  if (process.getuid?.() === 0) {
    const [uid, gid] = ['-u', '-g'].map((flag) => Number(execFileSync('id', [flag, 'postgres'], { encoding: 'utf8' }).trim()));
    await chown(dir, uid, gid);
    for (const file of ['ca.crt', 'server.crt', 'server.key']) await chown(join(dir, file), uid, gid);
  }
  return { dir, ca: join(dir, 'ca.crt'), otherCa: join(dir, 'other-ca.crt'), cert: join(dir, 'server.crt'), key: join(dir, 'server.key') };
}

/** PostgreSQL with ssl=on; only the `postgres` database takes plain connections (the helper's own). */
export async function startTlsPostgres(certs: Certificates): Promise<PostgresEngine> {
  const hba = join(certs.dir, 'pg_hba.conf');
  await writeFile(hba, 'local all all trust\nhostnossl postgres all 127.0.0.1/32 trust\nhostssl all all 127.0.0.1/32 trust\n');
  if (process.getuid?.() === 0) await chmod(hba, 0o644);
  return startPostgres({ settings: { ssl: 'on', ssl_cert_file: certs.cert, ssl_key_file: certs.key, hba_file: hba } });
}

export interface TlsRedis {
  /** rediss://127.0.0.1:port */
  url: string;
  stop(): Promise<void>;
}

/** redis-server on a TLS port only (--port 0), clients not asked for certificates. */
export async function startTlsRedis(certs: Certificates): Promise<TlsRedis> {
  if (!REDIS_BINARY) throw new Error('neither valkey-server nor redis-server is installed');
  const dir = await mkdtemp(join(tmpdir(), 'redis-tls-'));
  const port = await freePort();
  const args = ['--port', '0', '--tls-port', String(port), '--bind', '127.0.0.1', '--dir', dir, '--save', '', '--appendonly', 'no'];
  args.push('--tls-cert-file', certs.cert, '--tls-key-file', certs.key, '--tls-ca-cert-file', certs.ca, '--tls-auth-clients', 'no');
  const child = spawn(REDIS_BINARY, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  await new Promise<void>((ready, fail) => {
    let output = '';
    const onData = (chunk: Buffer) => {
      output += chunk;
      if (!/Ready to accept connections/.test(output)) return;
      child.stdout!.off('data', onData);
      child.stdout!.resume();
      ready();
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', (chunk) => (output += chunk));
    void exited.then(() => fail(new Error(`redis-server with TLS exited before it was ready:\n${output}`)));
  });
  return {
    url: `rediss://127.0.0.1:${port}`,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) process.kill(child.pid!, 'SIGTERM');
      await exited;
      await rm(dir, { recursive: true, force: true });
    },
  };
}

export async function removeCertificates(certs: Certificates): Promise<void> {
  await rm(certs.dir, { recursive: true, force: true });
}
