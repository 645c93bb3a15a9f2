import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';

const file = (rel: string) => new URL(`../../${rel}`, import.meta.url);

describe('docs/static-hosting.md', () => {
  test('static hosting doc: it links the nginx configuration the benchmark runs, rather than a copy that could drift', async () => {
    const doc = await readFile(file('docs/static-hosting.md'), 'utf8');
    expect(doc).not.toMatch(/```nginx/);
    for (const conf of ['scripts/bench/nginx.conf', 'scripts/bench/nginx-headers.conf']) {
      expect(doc).toContain(`](../${conf})`);
      expect(existsSync(fileURLToPath(file(conf))), conf).toBe(true);
    }
  });
});
