/** What `npm start` checks before it spends seconds on a build, so a clash fails fast (docs/front.md, "`npm start`"). */
import { randomBytes } from 'node:crypto';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import type { Config } from '../config.ts';
import { MAX_SOCKET_PATH_BYTES, sidecarAddress } from '../net/sidecar-address.ts';

/** Every problem found, each a sentence naming the variable to change; empty when all is well. */
export async function preflight(config: Config): Promise<string[]> {
  const problems: string[] = [];
  // The TCP listeners asked for; a sidecar on its Unix socket (the default) has none, and port 0
  // (any free port) cannot clash.
  const listeners = [
    { variable: 'PORT', host: config.HOST, port: config.PORT },
    config.SIDECAR_LISTEN === 'tcp' && { variable: 'SIDECAR_PORT', host: config.SIDECAR_HOST, port: config.SIDECAR_PORT },
    config.METRICS_PORT !== undefined && { variable: 'METRICS_PORT', host: config.METRICS_HOST, port: config.METRICS_PORT },
  ];
  const seen = new Map<number, string>();
  for (const listener of listeners) {
    if (!listener || listener.port === 0) continue;
    const { variable, host, port } = listener;
    const twin = seen.get(port);
    if (twin) {
      problems.push(`${variable} and ${twin} are both ${port}: give ${variable} another port.`);
      continue;
    }
    seen.set(port, variable);
    const why = await portProblem(host, port);
    if (why) problems.push(`${variable}=${port}: ${host}:${port} ${why}; choose another ${variable}.`);
  }
  const dataProblem = await dataDirProblem(config.DATA_DIR);
  if (dataProblem) problems.push(`DATA_DIR=${config.DATA_DIR}: ${dataProblem}; set DATA_DIR to a writable directory.`);
  const sidecar = sidecarAddress(config);
  if ('socketPath' in sidecar && Buffer.byteLength(sidecar.socketPath) > MAX_SOCKET_PATH_BYTES) {
    problems.push(`DATA_DIR=${config.DATA_DIR}: the sidecar's socket ${sidecar.socketPath} would be longer than ${MAX_SOCKET_PATH_BYTES} bytes; choose a shorter DATA_DIR, or SIDECAR_LISTEN=tcp.`);
  }
  return problems;
}

/** Why host:port cannot be listened on now, or undefined. */
function portProblem(host: string, port: number): Promise<string | undefined> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.once('error', (error: NodeJS.ErrnoException) => {
      resolve(error.code === 'EADDRINUSE' ? 'is already in use' : error.code === 'EACCES' ? 'needs privileges this process lacks' : `cannot be used (${error.code ?? error.message})`);
    });
    server.listen({ host, port, exclusive: true }, () => server.close(() => resolve(undefined)));
  });
}

/** Why the data directory cannot hold the store, or undefined. Creates it (0700) when missing. */
async function dataDirProblem(dir: string): Promise<string | undefined> {
  const full = path.resolve(dir);
  try {
    await mkdir(full, { recursive: true, mode: 0o700 });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return code === 'EEXIST' || code === 'ENOTDIR' ? 'is not a directory' : `cannot be created (${code ?? String(error)})`;
  }
  // A real write, not access(): root passes access() on a read-only mount.
  const probe = path.join(full, `.write-test-${randomBytes(4).toString('hex')}`);
  try {
    await writeFile(probe, '', { flag: 'wx', mode: 0o600 });
    await rm(probe, { force: true });
    return undefined;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return code === 'ENOTDIR' ? 'is not a directory' : `is not writable (${code ?? String(error)})`;
  }
}
