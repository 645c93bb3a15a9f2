import { readFile } from 'node:fs/promises';
import { describe, expect, test } from 'vitest';

const read = (rel: string) => readFile(new URL(`../../${rel}`, import.meta.url), 'utf8');

describe('docs/static-hosting.md', () => {
  test('static hosting doc: its nginx configuration is the one the benchmark runs', async () => {
    const doc = await read('docs/static-hosting.md');
    const blocks = [...doc.matchAll(/```nginx\n([\s\S]*?)```/g)].map((m) => m[1]);
    expect(blocks).toEqual([await read('scripts/bench/nginx.conf'), await read('scripts/bench/nginx-headers.conf')]);
  });
});
