/**
 * The outside programs the deploy tests run (nginx, systemd-analyze, openssl). Where one is
 * missing its tests are skipped by name, unless REQUIRE_ENGINES=1 (CI, .ci/run): then they fail.
 */
import { execFileSync } from 'node:child_process';

export function hasCommand(name: string): boolean {
  try {
    execFileSync('sh', ['-c', `command -v ${name}`], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** True when the tests may run; false to skip them. Throws when CI requires the program. */
export function engine(name: string): boolean {
  if (hasCommand(name)) return true;
  // Test files read the environment of the test run, not the product's: api/config.ts is not involved.
  if (process.env.REQUIRE_ENGINES === '1') throw new Error(`${name} is required (REQUIRE_ENGINES=1) but not installed: apt-get install ${name}`);
  return false;
}
