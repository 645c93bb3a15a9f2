/** Loopback ports for servers that the benchmarks and the tests start (test/support/stack.ts, test/deploy/nginx.ts, dnsmasq.ts). */
import type { ChildProcess } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';

/**
 * Ports handed to child processes are drawn below Linux's ephemeral range (32768–60999 by
 * default), where the kernel never places the local end of an outgoing connection: a port from
 * listen(0) lies inside that range, and any connection opened between the check and the child's
 * own listen (to PostgreSQL, Redis, the stack itself) could take it, which made a stack fail to
 * start now and then under a busy test run.
 */
const LOW = 20_000;
const HIGH = 32_767;
const handedOut = new Set<number>();

/** A 127.0.0.1 port that was free a moment ago and that this process has not handed out before. */
export async function freePort(): Promise<number> {
  for (let attempt = 0; attempt < 200; attempt++) {
    const port = LOW + Math.floor(Math.random() * (HIGH - LOW + 1));
    if (handedOut.has(port)) continue;
    const free = await new Promise<boolean>((resolve) => {
      const server = net.createServer();
      server.once('error', () => resolve(false));
      server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
    });
    if (free) {
      handedOut.add(port);
      return port;
    }
  }
  throw new Error(`no free port between ${LOW} and ${HIGH} after 200 tries`);
}

/**
 * For a server with no readiness signal (nginx): polls 127.0.0.1:`port` every 50 ms until it
 * accepts; fails when `child` exits first or after `attempts` tries.
 */
export async function waitForPort(port: number, child: ChildProcess, attempts = 100): Promise<void> {
  const name = path.basename(child.spawnfile);
  for (let attempt = 0; attempt < attempts; attempt++) {
    if (child.exitCode !== null) throw new Error(`${name} exited with code ${child.exitCode}`);
    const open = await new Promise<boolean>((resolve) => {
      const socket = net.connect(port, '127.0.0.1', () => (socket.end(), resolve(true)));
      socket.on('error', () => resolve(false));
    });
    if (open) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`${name} did not open port ${port}`);
}
