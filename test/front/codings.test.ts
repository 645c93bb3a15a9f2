/**
 * The compressed copies the build writes beside each file (`X.br`, `X.gz`): the front serves them
 * as X's codings, never as resources of their own, and never when they no longer unpack to X.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createFrontHandler } from '../../api/front/app.ts';
import { writeCodings } from '../../api/front/codings.ts';
import { listen, type Listening } from '../../api/front/server.ts';
import { loadSite } from '../../api/front/static.ts';
import { raw } from './client.ts';
import { BASE, FILES, createFixture, type Fixture } from './fixture.ts';

const EDITED = `# Thanks, edited after the build\n\n${'more words '.repeat(40)}\n`;
const ARCHIVE = Buffer.from('an archive with no original beside it');

let fixture: Fixture;
let front: Listening;
beforeAll(async () => {
  fixture = await createFixture();
  await writeCodings(fixture.dist);
  await writeFile(path.join(fixture.dist, 'thanks.md'), EDITED);
  await mkdir(path.join(fixture.dist, 'downloads'));
  await writeFile(path.join(fixture.dist, 'downloads', 'data.tar.gz'), ARCHIVE);
  const site = await loadSite(fixture.dist, BASE);
  front = await listen(createFrontHandler({ site, proxy: (_req, res) => res.writeHead(502).end() }), '127.0.0.1', 0);
});
afterAll(async () => {
  await front?.close(1_000);
  await fixture?.cleanup();
});

const get = (target: string, coding: string) => raw(front.url, target, { headers: { 'accept-encoding': coding } });

describe('stored codings', () => {
  test('codings: the build writes a brotli and a gzip copy of each compressible file, and none of a small one', async () => {
    expect(await readFile(path.join(fixture.dist, 'index.html.br'))).toBeTruthy();
    expect(await readFile(path.join(fixture.dist, 'index.html.gz'))).toBeTruthy();
    await expect(readFile(path.join(fixture.dist, 'robots.txt.br'))).rejects.toThrow();
  });

  test('codings: Accept-Encoding br or gzip -> the bytes the build stored, unpacking to the file', async () => {
    for (const [coding, suffix] of [['br', '.br'], ['gzip', '.gz']] as const) {
      const res = await get('/', coding);
      expect(res.headers['content-encoding']).toBe(coding);
      expect(res.body.equals(await readFile(path.join(fixture.dist, `index.html${suffix}`)))).toBe(true);
      expect(res.text).toBe(FILES['index.html']);
    }
  });

  test('codings: a stored copy is no page of its own: /index.html.br and /thanks.md.gz -> 404', async () => {
    expect((await get('/index.html.br', 'identity')).status).toBe(404);
    expect((await get('/thanks.md.gz', 'identity')).status).toBe(404);
  });

  test('codings: a file edited after the build is served compressed from its new content, not the stale copy', async () => {
    for (const coding of ['br', 'gzip']) {
      const res = await get('/thanks.md', coding);
      expect(res.headers['content-encoding']).toBe(coding);
      expect(res.text).toBe(EDITED);
    }
  });

  test('codings: a .gz file with no original beside it is an ordinary file', async () => {
    const res = await get('/downloads/data.tar.gz', 'gzip');
    expect(res.status).toBe(200);
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.body.equals(ARCHIVE)).toBe(true);
  });
});
