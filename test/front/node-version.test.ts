import { spawnSync } from 'node:child_process';
import { describe, expect, test } from 'vitest';
// @ts-expect-error: plain JavaScript module without type declarations
import { nodeVersionProblem } from '../../scripts/require-node.mjs';

describe('Node version check (scripts/require-node.mjs, first step of every npm script)', () => {
  test.each([
    ['v20.20.2', true],
    ['v22.12.0', true],
    ['v23.11.1', true],
    ['v24.0.0', false],
    ['v24.21.0', false],
    ['v26.10.0', false],
  ])('node: %s -> refused: %s', (version, refused) => {
    const problem = nodeVersionProblem(version);
    expect(problem !== undefined).toBe(refused);
    if (refused) expect(problem).toMatch(/Node\.js 24 LTS or newer.*npm ci installs Node 24/s);
  });

  test('node: the running Node (the one npm ci installs) passes the check and the script exits 0', () => {
    const run = spawnSync(process.execPath, ['scripts/require-node.mjs'], { encoding: 'utf8' });
    expect(run.status).toBe(0);
    expect(run.stderr).toBe('');
  });
});
