/** Loopback ports for servers started by the benches (and by the tests: test/support/stack.ts, test/deploy/nginx.ts). */
import type { ChildProcess } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';

/** A 127.0.0.1 port that was free a moment ago. */
export async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
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
