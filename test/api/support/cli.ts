/** Runs a node script of the project to its end and collects what it printed. */
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { WaitlistRecord } from '../../../api/sidecar/domain/record.ts';
import { openForOperator } from '../../../api/sidecar/operator/access.ts';
import { testConfig } from './harness.ts';

/** The project's root: every script runs with it as the working directory. */
export const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

export interface Finished {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Accumulates a child's stdout and stderr as text as they arrive. */
export function captureOutput(child: ChildProcess): { stdout: () => string; stderr: () => string } {
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (chunk) => (stdout += chunk));
  child.stderr!.on('data', (chunk) => (stderr += chunk));
  return { stdout: () => stdout, stderr: () => stderr };
}

/**
 * An operator command (`node scripts/<name>.ts ...args`) as a real process with a clean
 * environment: only PATH, an origin in BASE_URL (vitest's env has BASE_URL=/) and `env` (and
 * Node's compile cache, test/vitest.config.ts, which changes how fast it starts, nothing else).
 * Resolves on 'close', once both pipes are drained.
 */
export function runCommand(script: string, args: string[], env: Record<string, string>): Promise<Finished> {
  const child = spawn(process.execPath, [script, ...args], {
    cwd: ROOT,
    env: { PATH: process.env.PATH, NODE_COMPILE_CACHE: process.env.NODE_COMPILE_CACHE, BASE_URL: 'https://waitlist.example', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output = captureOutput(child);
  return new Promise((done) => child.on('close', (code) => done({ code, stdout: output.stdout(), stderr: output.stderr() })));
}

/**
 * Every record in sign-up order as the commands see them with `env` (DATA_DIR, DATABASE_URL), read
 * in this process the way they reach the store (api/sidecar/operator/access.ts: the database, the
 * running sidecar's operator socket, or the file), for tests whose rule is not the export itself.
 */
export async function storedRecords(env: Record<string, string>): Promise<WaitlistRecord[]> {
  const access = await openForOperator(testConfig(env), 'read');
  const records: WaitlistRecord[] = [];
  try {
    for await (const record of access.store.export()) records.push(record);
    return records;
  } finally {
    await access.close();
  }
}
