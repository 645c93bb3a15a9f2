/** The recycling durable writer of the waitlist file and its snapshot reader, on real files. */
import { link, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { tempPathOf } from '../../api/sidecar/store/durable-file.ts';
import { readSnapshot, replaceRecycling, sparePathOf } from '../../api/sidecar/store/json/recycled-file.ts';
import { JsonWaitlistStore, STORE_FILE_NAME } from '../../api/sidecar/store/json/waitlist-store.ts';

let dir: string;
let path: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'recycled-file-'));
  path = join(dir, 'data.json');
});
afterEach(() => rm(dir, { recursive: true, force: true }));

const bytes = (text: string) => [Buffer.from(text)];
const allText = async () => Promise.all((await readdir(dir)).map((name) => readFile(join(dir, name), 'utf8')));

describe('recycled durable file', () => {
  it('recycled file: each write replaces the file whole, a shorter one leaves no tail of the longer generation it overwrites', async () => {
    await replaceRecycling(path, bytes('a'.repeat(5000)));
    await replaceRecycling(path, bytes('b'.repeat(3000)));
    await replaceRecycling(path, bytes('short'));
    expect(await readFile(path, 'utf8')).toBe('short');
    await replaceRecycling(path, bytes('next'));
    expect(await readFile(path, 'utf8')).toBe('next');
    expect((await stat(path)).mode & 0o777).toBe(0o600);
  });

  it('recycled file: the previous generation becomes the next temp file, not a second copy', async () => {
    await replaceRecycling(path, bytes('one'));
    await replaceRecycling(path, bytes('two'));
    const before = (await stat(tempPathOf(path))).ino;
    await replaceRecycling(path, bytes('three'));
    expect((await stat(path)).ino).toBe(before);
    expect((await readdir(dir)).sort()).toEqual(['.data.json.tmp', 'data.json']);
  });

  it('recycled file: a generation a reader holds by a link is never overwritten by later writes', async () => {
    await replaceRecycling(path, bytes('generation 1'));
    const reader = join(dir, '.data.json.read-slow');
    await link(path, reader);
    for (let i = 2; i <= 5; i++) await replaceRecycling(path, bytes(`generation ${i}`));
    expect(await readFile(reader, 'utf8')).toBe('generation 1');
    expect(await readFile(path, 'utf8')).toBe('generation 5');
  });

  it('recycled file: readSnapshot gives the committed text, undefined without a file, and leaves no link behind', async () => {
    expect(await readSnapshot(path)).toBeUndefined();
    await replaceRecycling(path, bytes('{"x":1}'));
    expect(await readSnapshot(path)).toBe('{"x":1}');
    expect((await readdir(dir)).sort()).toEqual(['data.json']);
  });
});

describe('waitlist store over the recycled file', () => {
  const signup = (email: string) => ({ email, consent: true as const });
  const at = '2026-11-20T10:00:00.000Z';

  it('store: after an erase no file in the data directory still holds the erased address, and later sign-ups still land', async () => {
    const store = await JsonWaitlistStore.open(dir);
    for (const email of ['gone@example.com', 'kept@example.com']) await store.upsert(signup(email), 'json', at);
    await store.upsert(signup('third@example.com'), 'json', at);
    expect(await store.erase('gone@example.com')).toBe(true);
    expect((await allText()).some((text) => text.includes('gone@example.com'))).toBe(false);
    await store.upsert(signup('after@example.com'), 'json', at);
    await store.close();
    expect(await readdir(dir)).toEqual([STORE_FILE_NAME]);
    const emails = JSON.parse(await readFile(join(dir, STORE_FILE_NAME), 'utf8')).records.map((r: { email: string }) => r.email);
    expect(emails).toEqual(['kept@example.com', 'third@example.com', 'after@example.com']);
  });

  it('store: open removes a cut-short write (temp and spare) and links of readers that no longer run, not those of running readers', async () => {
    await (await JsonWaitlistStore.open(dir)).close();
    const file = join(dir, STORE_FILE_NAME);
    await writeFile(tempPathOf(file), '{"half');
    await link(file, sparePathOf(file));
    await link(file, join(dir, `.${STORE_FILE_NAME}.read-999999999-dead`));
    await link(file, join(dir, `.${STORE_FILE_NAME}.read-${process.ppid}-alive`));
    const store = await JsonWaitlistStore.open(dir);
    expect((await readdir(dir)).sort()).toEqual([`.${STORE_FILE_NAME}.read-${process.ppid}-alive`, STORE_FILE_NAME]);
    await store.close();
  });
});
