/**
 * Where the sidecar listens and the front connects: one decision for both processes
 * (docs/api.md, "Where the sidecar listens, and the client address").
 */
import { resolve } from 'node:path';
import type { Config } from '../config.ts';

export type SidecarAddress = { socketPath: string } | { host: string; port: number };

/**
 * sockaddr_un.sun_path is 108 bytes on Linux (104 on macOS), terminating NUL included: a longer
 * path cannot be bound at all.
 */
export const MAX_SOCKET_PATH_BYTES = 103;

export function sidecarAddress(config: Pick<Config, 'SIDECAR_LISTEN' | 'SIDECAR_HOST' | 'SIDECAR_PORT' | 'DATA_DIR'>): SidecarAddress {
  if (config.SIDECAR_LISTEN === 'tcp') return { host: config.SIDECAR_HOST, port: config.SIDECAR_PORT };
  // The data-directory lock makes the socket one sidecar's.
  return { socketPath: resolve(config.DATA_DIR, 'sidecar.sock') };
}

/** For logs and the ready message: `unix:/abs/path` or `http://host:port`. */
export function describeAddress(address: SidecarAddress): string {
  if ('socketPath' in address) return `unix:${address.socketPath}`;
  return `http://${address.host.includes(':') ? `[${address.host}]` : address.host}:${address.port}`;
}

/** The sidecar's ready message (`{type: 'ready', url, socketPath?}`) as the address to connect to. */
export function addressFromReady(message: { url: string; socketPath?: string }): SidecarAddress {
  if (message.socketPath) return { socketPath: message.socketPath };
  const url = new URL(message.url);
  // A sidecar bound to every interface is reached on loopback.
  const host = ['0.0.0.0', '[::]'].includes(url.hostname) ? '127.0.0.1' : url.hostname.replace(/^\[|\]$/g, '');
  return { host, port: Number(url.port) };
}
