/**
 * The e-mail templates (content/<lang>/messages/) are content: a mistake fails `npm run build`
 * and `waitlist invite` with the file and line, before any page is built or any message sent.
 * Each case runs the real scripts in a copy of the project whose template is broken.
 */
import { spawn } from 'node:child_process';
import { cp, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from '../api/support/cli.ts';

let copy: string;
const TEMPLATE = 'content/de/messages/invite.md';

beforeAll(async () => {
  copy = await mkdtemp(join(tmpdir(), 'message-templates-'));
  for (const part of ['api', 'site', 'scripts', 'content', 'package.json']) await cp(join(ROOT, part), join(copy, part), { recursive: true });
  await symlink(join(ROOT, 'node_modules'), join(copy, 'node_modules'));
});
afterAll(() => rm(copy, { recursive: true, force: true }));

function run(script: string, args: string[], env: Record<string, string> = {}): Promise<{ code: number | null; stderr: string }> {
  const child = spawn(process.execPath, [script, ...args], {
    cwd: copy,
    env: { PATH: process.env.PATH, BASE_URL: 'https://waitlist.example', DIST_DIR: join(copy, 'dist'), ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk) => (stderr += chunk));
  return new Promise((done) => child.on('close', (code) => done({ code, stderr })));
}

/** Writes the template with `edit` applied to the shipped one; returns the 1-based line of `marker`. */
async function breakTemplate(edit: (text: string) => string, marker: string): Promise<number> {
  const text = edit(await readFile(join(ROOT, TEMPLATE), 'utf8'));
  await writeFile(join(copy, TEMPLATE), text);
  return text.split('\n').findIndex((line) => line.includes(marker)) + 1;
}

describe('message templates', { timeout: 60_000 }, () => {
  it('templates: an unknown placeholder fails npm run build and invite, naming the file and line', async () => {
    const line = await breakTemplate((t) => t.replace('Jetzt ist er bereit.', 'Jetzt ist er bereit, {accessUrl}.'), '{accessUrl}');
    const build = await run('scripts/build.ts', []);
    expect(build.code).toBe(1);
    expect(build.stderr).toContain(`${TEMPLATE}:${line}: unknown placeholder {accessUrl}`);
    expect(build.stderr).not.toContain('astro');
    const invite = await run('scripts/waitlist.ts', ['invite', '--count', '1', '--dry-run'], { DATA_DIR: join(copy, 'data') });
    expect(invite.code).toBe(1);
    expect(invite.stderr).toContain(`${TEMPLATE}:${line}: unknown placeholder {accessUrl}`);
  });

  it('templates: a missing subject fails the build naming the file', async () => {
    await breakTemplate((t) => t.replace(/^subject: .*\n/m, ''), '---');
    const build = await run('scripts/build.ts', []);
    expect(build.code).toBe(1);
    expect(build.stderr).toContain(`${TEMPLATE}:1: the front matter needs a subject`);
  });

  it('templates: a message without the date, the privacy link or the way to leave fails the build', async () => {
    await breakTemplate((t) => t.replace('({privacy_url})', '(https://example.org/privacy)'), '---');
    const build = await run('scripts/build.ts', []);
    expect(build.code).toBe(1);
    expect(build.stderr).toContain(`${TEMPLATE}:4: the message must use {privacy_url}`);
  });
});
