/**
 * `npm run dev`, the editors' live preview, in a throw-away copy of the project (the repository's
 * content/ is never touched): a saved Markdown file updates the open page in Chromium without a
 * restart, the twin, llms.txt and the sitemap follow, the sign-up form reaches the preview's own
 * sidecar, and a broken page shows the file, the field or line and the fix.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { freePort, stackEnv } from '../support/stack.ts';
import { copyProject, type ProjectCopy } from '../site/support/project-copy.ts';
import { pagePerTest } from '../browser/support/page-per-test.ts';
import { field, signupForm } from '../browser/support/site.ts';
import { UI } from '../../site/i18n.ts';

let copy: ProjectCopy;
let preview: ChildProcess;
let url: string;
let output = '';
/**
 * A fresh browser context per test, closed after it: an error overlay goes to the tabs connected
 * at that moment, so no tab of an earlier test may linger.
 */
const newPage = pagePerTest(30_000);

beforeAll(async () => {
  copy = await copyProject();
  const port = await freePort();
  url = `http://127.0.0.1:${port}`;
  preview = spawn(process.execPath, [path.join(copy.dir, 'scripts', 'dev.ts')], {
    cwd: copy.dir,
    env: stackEnv({ HOST: '127.0.0.1', PORT: String(port), BASE_URL: url, NO_COLOR: '1', LOG_REQUESTS: 'false' }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  preview.stdout!.on('data', (chunk) => (output += chunk));
  preview.stderr!.on('data', (chunk) => (output += chunk));
  await new Promise<void>((resolve, reject) => {
    preview.stdout!.on('data', () => /preview on /.test(output) && resolve());
    preview.once('exit', (code) => reject(new Error(`npm run dev exited with ${code}:\n${output}`)));
  });
}, 120_000);

afterAll(async () => {
  if (preview && preview.exitCode === null) {
    const exited = new Promise((resolve) => preview.once('exit', resolve));
    preview.kill('SIGTERM');
    await exited;
  }
  // The preview removes its sidecar's throw-away data directory on exit.
  const dataDir = /data in (\S+),/.exec(output)?.[1];
  if (dataDir) await expect(readFile(path.join(dataDir, 'waitlist.json'))).rejects.toThrow(/ENOENT/);
  await copy?.remove();
}, 60_000);

const page = (lang: 'en' | 'de', slug: string, title: string, description: string, body: string) =>
  `---\nkey: ${slug}\ntitle: ${title}\ndescription: ${JSON.stringify(description)}\n---\n\n${body}\n`;

describe('npm run dev', { timeout: 90_000 }, () => {
  test('preview: saving a Markdown file updates the open page without a restart; twin, llms.txt and sitemap follow', async () => {
    const tab = await newPage();
    const original = await readFile(path.join(copy.dir, 'content/en/privacy.md'), 'utf8');
    await tab.goto(`${url}/privacy/`);
    const before = await tab.locator('h1').textContent();
    const changed = original.replace(/^title: .*$/m, 'title: Privacy notice, edited live');
    expect(changed).not.toBe(original);
    await copy.write('content/en/privacy.md', changed);
    // The dev server pushes the change; the page reloads by itself (no goto, no reload here).
    await tab.locator('h1', { hasText: 'Privacy notice, edited live' }).waitFor({ timeout: 30_000 });
    expect(before).not.toContain('edited live');

    const twin = await (await fetch(`${url}/privacy.md`)).text();
    expect(twin).toContain('title: "Privacy notice, edited live"');
    expect(twin).toContain('# Privacy notice, edited live');
    expect(await (await fetch(`${url}/llms.txt`)).text()).toContain('[Privacy notice, edited live]');

    // A new page pair: its page, twin, llms.txt line and sitemap entry, with no restart.
    await copy.write('content/en/changelog.md', page('en', 'changelog', 'Changelog', 'What changed on the site, newest first.', 'Nothing yet.'));
    await copy.write('content/de/aenderungen.md', page('de', 'changelog', 'Änderungen', 'Was sich auf der Website geändert hat, das Neueste zuerst.', 'Noch nichts.'));
    await expect.poll(async () => (await fetch(`${url}/changelog/`)).status, { timeout: 30_000 }).toBe(200);
    expect(await (await fetch(`${url}/sitemap.xml`)).text()).toContain(`<loc>${url}/changelog/</loc>`);
    expect(await (await fetch(`${url}/llms.txt`)).text()).toContain(`(${url}/de/aenderungen.md)`);
    expect(await (await fetch(`${url}/changelog.md`)).text()).toContain('# Changelog');
  });

  test('preview: the sign-up form works against the preview sidecar (JSON with JavaScript, 303 without)', async () => {
    const tab = await newPage();
    await tab.goto(`${url}/`);
    const form = signupForm(tab, 'hero');
    await field(form, 'email').fill('editor@example.com');
    await field(form, 'consent').check();
    await form.getByRole('button').click();
    await form.getByRole('status').and(tab.locator('[data-state="success"]')).waitFor({ timeout: 20_000 });
    expect(await form.getByRole('status').textContent()).toBe(UI.en.messages.success);

    const post = await fetch(`${url}/api/v1/waitlist`, { method: 'POST', body: new URLSearchParams({ email: 'editor@example.com', consent: 'on', lang: 'de' }), redirect: 'manual' });
    expect(post.status).toBe(303);
    expect(post.headers.get('location')).toBe('/de/danke/');
  });

  /**
   * The error overlay the preview shows in the browser (Vite's custom element; its text is in a
   * shadow root), once it holds every one of `parts`: the element is attached before its message
   * is filled in, and the watcher may first see the saved file half written (an error for an empty
   * file), so the page is loaded again until the overlay tells the final error.
   */
  async function overlayText(pagePath: string, parts: string[]): Promise<string> {
    const tab = await newPage();
    const deadline = Date.now() + 60_000;
    for (;;) {
      await tab.goto(`${url}${pagePath}`);
      await tab.waitForFunction((file) => document.querySelector('vite-error-overlay')?.shadowRoot?.textContent?.includes(file) ?? false, parts[0], { timeout: 30_000 });
      const text = await tab.evaluate(() => document.querySelector('vite-error-overlay')?.shadowRoot?.textContent ?? '');
      // Past the deadline the caller's assertions name what is missing.
      if (parts.every((part) => text.includes(part)) || Date.now() > deadline) return text;
      await new Promise((done) => setTimeout(done, 500));
    }
  }

  test('preview: a page with an H1 in its body shows the file, the line and the fix, in the browser and the terminal', async ({ onTestFinished }) => {
    const original = await readFile(path.join(copy.dir, 'content/en/imprint.md'), 'utf8');
    // The next test must not meet this page's error: wait until the preview has taken the fix.
    onTestFinished(async () => {
      await copy.write('content/en/imprint.md', original);
      await expect.poll(async () => (await fetch(`${url}/imprint/`)).status, { timeout: 30_000 }).toBe(200);
    });
    await copy.write('content/en/imprint.md', page('en', 'imprint', 'Imprint', 'Who runs this site and how to reach them.', 'Intro.\n\n# A second H1'));
    await expect.poll(async () => (await fetch(`${url}/imprint/`)).status, { timeout: 30_000 }).toBe(500);
    const parts = ['content/en/imprint.md', 'body line 3', 'Start sections with ##'];
    const text = await overlayText('/imprint/', parts);
    for (const part of parts) {
      expect(text).toContain(part);
      expect(output).toContain(part);
    }
  });

  test('preview: bad frontmatter shows the file, the field and what to write, in the browser and the terminal', async () => {
    await copy.write('content/de/impressum.md', page('de', 'imprint', 'Impressum', 'Zu kurz.', 'Text.'));
    await expect.poll(async () => (await fetch(`${url}/de/impressum/`)).status, { timeout: 30_000 }).toBe(500);
    const parts = ['content/de/impressum.md', 'description', 'at least 20 characters: write one sentence'];
    const text = await overlayText('/de/impressum/', parts);
    for (const part of parts) {
      expect(text).toContain(part);
      expect(output).toContain(part);
    }
  });
});
