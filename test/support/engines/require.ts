/**
 * The one rule for tests that need an engine: where the
 * engine is installed they run; where it is not they are reported as skipped, with the reason in
 * their name; and with REQUIRE_ENGINES=1 (.ci/run sets it) a missing engine is a failure instead.
 */
import { existsSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { describe, it } from 'vitest';

/** The first of `names` found on PATH or in `extraDirs`, as an absolute path. */
export function findBinary(names: readonly string[], extraDirs: readonly string[] = []): string | undefined {
  const dirs = [...(process.env.PATH ?? '').split(delimiter).filter(Boolean), ...extraDirs];
  for (const name of names) {
    for (const dir of dirs) {
      const candidate = join(dir, name);
      if (existsSync(candidate)) return candidate;
    }
  }
  return undefined;
}

export const enginesRequired = (): boolean => process.env.REQUIRE_ENGINES === '1';

/**
 * `describe(title, body)` when `binary` was found. Otherwise a skipped suite titled
 * "<title> (skipped: <engine> is not installed)", or, with REQUIRE_ENGINES=1, a suite whose one
 * test fails saying which engine is missing.
 */
export function describeWithEngine(engine: string, binary: string | undefined, title: string, body: () => void): void {
  if (binary) {
    describe(title, body);
  } else if (enginesRequired()) {
    describe(title, () => {
      it(`${engine} is installed (REQUIRE_ENGINES=1)`, () => {
        throw new Error(`${engine} is not installed, and REQUIRE_ENGINES=1 makes that a failure: install it (see .ci/run).`);
      });
    });
  } else {
    describe.skip(`${title} (skipped: ${engine} is not installed)`, body);
  }
}
