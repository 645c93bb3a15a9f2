/**
 * Real nginx running the deploy guide's configuration (docs/deploy/nginx/) in a temp prefix: a
 * self-signed certificate made with openssl, free loopback ports, the production-only values
 * (ports, certificate paths, upstream addresses) replaced, stopped by PID.
 */
import { execFile, spawn } from 'node:child_process';
import { chmod, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import http from 'node:http';
import https from 'node:https';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { waitForPort } from '../../scripts/ports.ts';
import { findBinary } from '../support/engines/require.ts';
import { ROOT, freePort } from '../support/stack.ts';

export const NGINX_DIR = path.join(ROOT, 'docs', 'deploy', 'nginx');

/** Debian's nginx (in /usr/sbin, which a user's PATH may lack) and openssl for the certificate. */
export const NGINX = findBinary(['nginx'], ['/usr/sbin']);
export const OPENSSL = findBinary(['openssl']);
/** For describeWithEngine: both programs, or undefined when one is missing. */
export const NGINX_AND_OPENSSL = NGINX && OPENSSL ? NGINX : undefined;

export interface RunningNginx {
  /** https://127.0.0.1:port */
  url: string;
  /** http://127.0.0.1:port (the redirecting server) */
  plainUrl: string;
  tlsPort: number;
  stop(): Promise<void>;
}

/** Replaces `from` by `to` and fails when `from` is absent, so a renamed value in the artefact is noticed. */
function replaceAll(text: string, from: string | RegExp, to: string, file: string): string {
  const found = typeof from === 'string' ? text.includes(from) : new RegExp(from.source, 'm').test(text);
  if (!found) throw new Error(`${file}: expected ${String(from)} in the deploy configuration`);
  return typeof from === 'string' ? text.split(from).join(to) : text.replace(new RegExp(from.source, 'gm'), to);
}

/**
 * Starts nginx with waitlist.conf and the given upstream file, its `upstreams` (in file order)
 * pointing to the given host:port addresses.
 */
export async function startNginx(upstreamFile: string, upstreams: string[], tlsPort?: number): Promise<RunningNginx> {
  const prefix = await mkdtemp(path.join(tmpdir(), 'deploy-nginx-'));
  // Workers run as an unprivileged user when the tests run as root: they must reach the temp dirs.
  await chmod(prefix, 0o755);
  await promisify(execFile)(OPENSSL!, [
    'req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', '1',
    '-subj', '/CN=localhost', '-addext', 'subjectAltName=DNS:localhost,IP:127.0.0.1',
    '-keyout', path.join(prefix, 'privkey.pem'), '-out', path.join(prefix, 'fullchain.pem'),
  ]);
  const tls = tlsPort ?? (await freePort());
  const plain = await freePort();

  let site = await readFile(path.join(NGINX_DIR, 'waitlist.conf'), 'utf8');
  site = replaceAll(site, /^\s*listen \[::\]:.*$/, '', 'waitlist.conf'); // the test machine may lack IPv6
  site = replaceAll(site, 'listen 443 ssl', `listen 127.0.0.1:${tls} ssl`, 'waitlist.conf');
  site = replaceAll(site, 'listen 80;', `listen 127.0.0.1:${plain};`, 'waitlist.conf');
  site = replaceAll(site, '/etc/letsencrypt/live/waitlist.example.org/', `${prefix}/`, 'waitlist.conf');
  site = replaceAll(site, '/var/log/waitlist/', `${prefix}/`, 'waitlist.conf');

  let upstream = await readFile(path.join(NGINX_DIR, upstreamFile), 'utf8');
  const servers = [...upstream.matchAll(/^\s*server (\S+?)(;|\s)/gm)].map((m) => m[1]);
  if (servers.length !== upstreams.length) throw new Error(`${upstreamFile} has ${servers.length} servers, the test gave ${upstreams.length}`);
  servers.forEach((server, i) => (upstream = replaceAll(upstream, `server ${server}`, `server ${upstreams[i]}`, upstreamFile)));

  // What /etc/nginx/nginx.conf provides around conf.d/*.conf, with every path in the prefix.
  const conf = `worker_processes 1;
events { worker_connections 256; }
http {
  client_body_temp_path ${prefix}/client_body;
  proxy_temp_path ${prefix}/proxy;
  fastcgi_temp_path ${prefix}/fastcgi;
  uwsgi_temp_path ${prefix}/uwsgi;
  scgi_temp_path ${prefix}/scgi;
  include ${prefix}/upstream.conf;
  include ${prefix}/waitlist.conf;
}
`;
  await writeFile(path.join(prefix, 'upstream.conf'), upstream);
  await writeFile(path.join(prefix, 'waitlist.conf'), site);
  await writeFile(path.join(prefix, 'nginx.conf'), conf);
  const child = spawn(NGINX!, ['-p', prefix, '-c', path.join(prefix, 'nginx.conf'), '-e', path.join(prefix, 'error.log'), '-g', `daemon off; pid ${prefix}/nginx.pid;`], {
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  try {
    await waitForPort(tls, child, 200);
  } catch (error) {
    child.kill('SIGKILL');
    const log = await readFile(path.join(prefix, 'error.log'), 'utf8').catch(() => '');
    await rm(prefix, { recursive: true, force: true });
    throw new Error(`${(error as Error).message}\n${log}`);
  }
  return {
    url: `https://127.0.0.1:${tls}`,
    plainUrl: `http://127.0.0.1:${plain}`,
    tlsPort: tls,
    async stop() {
      // SIGQUIT: graceful stop; the master (this PID) waits for its workers.
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGQUIT');
      await exited;
      await rm(prefix, { recursive: true, force: true });
    },
  };
}

export interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/**
 * One request, optionally from another loopback address (`from`, e.g. 127.0.0.2), so that the
 * client address nginx sees differs from nginx's own; the test certificate is self-signed.
 */
export function call(url: string, options: { method?: string; body?: string; headers?: Record<string, string>; from?: string } = {}): Promise<Answer> {
  const target = new URL(url);
  const lib = (target.protocol === 'https:' ? https : http) as typeof https;
  return new Promise((resolve, reject) => {
    const req = lib.request(target, {
      method: options.method ?? 'GET',
      headers: { ...(options.body ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(options.body) } : {}), ...options.headers },
      localAddress: options.from,
      rejectUnauthorized: false,
      agent: false,
    }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end(options.body);
  });
}
