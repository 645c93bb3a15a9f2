/** Where the sidecar's servers listen (docs/api.md, "Where the sidecar listens"). */
import { once } from 'node:events';
import { chmod, lstat, mkdir, unlink } from 'node:fs/promises';
import type { Server } from 'node:http';
import { connect } from 'node:net';
import { dirname } from 'node:path';
import { MAX_SOCKET_PATH_BYTES, describeAddress, type SidecarAddress } from '../net/sidecar-address.ts';
import { StartupError } from './store/errors.ts';

/** What the supervisor learns in the ready message. */
export interface Listened {
  /** `unix:/abs/path` or `http://host:port` (the real port when 0 was asked for). */
  url: string;
  socketPath?: string;
}

export async function listenSidecar(server: Server, address: SidecarAddress): Promise<Listened> {
  if ('socketPath' in address) return listenSocket(server, address.socketPath);
  const { host, port } = address;
  await bind(server, () => server.listen(port, host), (code) =>
    `The address ${host}:${port} (SIDECAR_HOST:SIDECAR_PORT) ${code === 'EADDRINUSE' ? 'is already in use' : `cannot be used (${code})`}. Choose another SIDECAR_PORT.`,
  );
  const bound = server.address();
  return { url: describeAddress({ host, port: typeof bound === 'object' && bound ? bound.port : port }) };
}

async function listenSocket(server: Server, socketPath: string): Promise<Listened> {
  if (Buffer.byteLength(socketPath) > MAX_SOCKET_PATH_BYTES) {
    throw new StartupError(`The sidecar's socket path ${socketPath} is longer than ${MAX_SOCKET_PATH_BYTES} bytes, which a Unix domain socket cannot have. Choose a shorter DATA_DIR, or SIDECAR_LISTEN=tcp.`);
  }
  const existing = await lstat(socketPath).catch(() => undefined);
  if (existing && !existing.isSocket()) throw new StartupError(`${socketPath} exists and is not a socket; remove it, then start again.`);
  // A socket nobody answers on is a dead sidecar's (SIGKILL); a live one is another stack's.
  if (existing && (await answers(socketPath))) throw new StartupError(`Another sidecar is listening on ${socketPath} (same DATA_DIR). Stop it, or choose another DATA_DIR.`);
  if (existing) await unlink(socketPath);
  await listenPrivateSocket(server, socketPath, (code) => `The sidecar cannot listen on ${socketPath} (${code}).`);
  return { url: describeAddress({ socketPath }), socketPath };
}

/** Listens on a Unix socket that only this user can connect to (mode 0600, in a 0700 directory). */
export async function listenPrivateSocket(server: Server, socketPath: string, why: (code: string) => string): Promise<void> {
  await mkdir(dirname(socketPath), { recursive: true, mode: 0o700 });
  await bind(server, () => {
    // umask for the bind (synchronous inside listen()): the socket file is never connectable by
    // others, not even for a moment before the chmod.
    const umask = process.umask(0o177);
    try {
      server.listen(socketPath);
    } finally {
      process.umask(umask);
    }
  }, why);
  await chmod(socketPath, 0o600);
}

function answers(socketPath: string): Promise<boolean> {
  const probe = connect(socketPath);
  return once(probe, 'connect').then(() => (probe.destroy(), true), () => false);
}

async function bind(server: Server, listen: () => void, why: (code: string) => string): Promise<void> {
  listen();
  await once(server, 'listening').catch((error: NodeJS.ErrnoException) => {
    throw new StartupError(why(error.code ?? error.message));
  });
}
