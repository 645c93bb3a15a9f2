/**
 * A throwaway DNS server for the tests and the clean list's bench: Debian's dnsmasq (package
 * dnsmasq-base) on a free loopback port, answering from the records it is given (dnsmasq's
 * configuration lines, such as `mx-host=mx.test,mail.mx.test,10`) and nothing else: no /etc/hosts,
 * no resolv.conf, no upstream.
 * A name in a zone made `local=/zone/` that has no record does not exist (NXDOMAIN); a name outside
 * every local zone is refused (REFUSED), as a server that will not answer for it. It runs in the
 * foreground, so the PID held is the server's, and is stopped by that PID.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { freePort } from './ports.ts';

/** Debian installs it in /usr/sbin, which a user's PATH may lack. */
export const DNSMASQ_BINARY = [...(process.env.PATH ?? '').split(delimiter), '/usr/sbin', '/sbin']
  .map((dir) => join(dir, 'dnsmasq'))
  .find((candidate) => existsSync(candidate));

export type DnsServer = Awaited<ReturnType<typeof startDnsmasq>>;

export async function startDnsmasq(records: readonly string[]) {
  if (!DNSMASQ_BINARY) throw new Error('dnsmasq is not installed (Debian package dnsmasq-base)');
  const dir = await mkdtemp(join(tmpdir(), 'dnsmasq-'));
  const conf = join(dir, 'dnsmasq.conf');
  await writeFile(conf, `${records.join('\n')}\n`);
  const port = await freePort();
  const args = [
    '--keep-in-foreground', `--conf-file=${conf}`, '--no-hosts', '--no-resolv', '--pid-file=', '--log-facility=-',
    `--port=${port}`, '--listen-address=127.0.0.1', '--bind-interfaces', '--user=root', '--group=root', '--cache-size=0',
  ];
  const child = spawn(DNSMASQ_BINARY, args, { stdio: ['ignore', 'ignore', 'pipe'] });
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  let log = '';
  await new Promise<void>((ready, fail) => {
    child.stderr!.on('data', (chunk: Buffer) => {
      log += chunk;
      // Logged once its sockets are bound.
      if (/\bstarted, version/.test(log)) ready();
    });
    child.once('error', fail);
    void exited.then(() => fail(new Error(`dnsmasq exited before it was ready:\n${log}`)));
  });
  return {
    /** As DNS_SERVERS takes it. */
    address: `127.0.0.1:${port}`,
    /** What the server logged so far (with `log-queries` among the records: every query it was asked). */
    log: () => log,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) process.kill(child.pid!, 'SIGTERM');
      await exited;
      await rm(dir, { recursive: true, force: true });
    },
  };
}
