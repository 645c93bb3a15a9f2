/**
 * The MCP conformance suite (@modelcontextprotocol/conformance, pinned) in server mode against the
 * real stack's endpoint. Scenarios that cannot apply to this server are listed, each with its
 * reason, in conformance/expected-failures.yml; the suite fails on any other failure and on a
 * listed scenario that passes.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { expect, inject, it } from 'vitest';
import { environmentUrls } from '../../api/contract/index.ts';
import { ROOT } from '../support/stack.ts';

const stack = inject('stack');
const CLI = path.join(ROOT, 'node_modules', '@modelcontextprotocol', 'conformance', 'dist', 'index.js');
const EXPECTED = path.join(ROOT, 'test', 'e2e', 'conformance', 'expected-failures.yml');

it('conformance, server mode, production endpoint: every scenario passes or is an expected failure', async () => {
  // The suite writes its results into the working directory: a temp dir of its own.
  const cwd = await mkdtemp(path.join(tmpdir(), 'mcp-conformance-'));
  try {
    const url = environmentUrls(stack.baseUrl, 'production').mcp;
    const run = await promisify(execFile)(process.execPath, [CLI, 'server', '--url', url, '--expected-failures', EXPECTED], { cwd }).catch((error) => error);
    expect(run.code ?? 0, `${run.stdout}\n${run.stderr}`).toBe(0);
  } finally {
    await rm(cwd, { recursive: true, force: true });
  }
}, 180_000);
