/**
 * The privacy notice promises how long technical logs are kept; the deploy guide's log settings
 * must keep that promise (and follow it when the notice changes).
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { expect, test } from 'vitest';
import { ROOT } from '../support/stack.ts';
import { describeWithEngine, findBinary } from '../support/engines/require.ts';

const DEPLOY = path.join(ROOT, 'docs', 'deploy');

/** The days the notice promises, read from both languages (they must agree). */
async function promisedDays(): Promise<number> {
  const en = /logs record[^.]*?deleted after (\d+) days/i.exec(await readFile(path.join(ROOT, 'content/en/privacy.md'), 'utf8'));
  const de = /Protokolle[^.]*?nach (\d+) Tagen gelöscht/i.exec(await readFile(path.join(ROOT, 'content/de/datenschutz.md'), 'utf8'));
  expect(en, 'content/en/privacy.md states how long logs are kept').not.toBeNull();
  expect(de, 'content/de/datenschutz.md states how long logs are kept').not.toBeNull();
  expect(Number(de![1])).toBe(Number(en![1]));
  return Number(en![1]);
}

function days(span: string): number {
  const match = /^(\d+)\s*(day|d|week|w)$/.exec(span.trim());
  if (!match) throw new Error(`unexpected time span "${span}"`);
  return Number(match[1]) * (match[2].startsWith('w') ? 7 : 1);
}

test('journald (product logs): MaxRetentionSec + MaxFileSec is at most the days the privacy notice promises', async () => {
  const conf = await readFile(path.join(DEPLOY, 'systemd', 'journald@waitlist.conf'), 'utf8');
  const value = (key: string) => new RegExp(`^${key}=(.+)$`, 'm').exec(conf)?.[1] ?? '';
  const retention = days(value('MaxRetentionSec'));
  const file = days(value('MaxFileSec'));
  expect(conf).toMatch(/^\[Journal\]$/m);
  expect(retention + file).toBeLessThanOrEqual(await promisedDays());
});

test('the service writes to the journal namespace that file configures', async () => {
  const unit = await readFile(path.join(DEPLOY, 'systemd', 'waitlist.service'), 'utf8');
  expect(unit).toMatch(/^LogNamespace=waitlist$/m);
});

test('logrotate (nginx error log): daily, no file older than the promised days', async () => {
  const conf = await readFile(path.join(DEPLOY, 'logrotate', 'waitlist-nginx'), 'utf8');
  expect(conf).toMatch(/^\s*daily$/m);
  const rotate = Number(/^\s*rotate (\d+)$/m.exec(conf)?.[1]);
  const maxage = Number(/^\s*maxage (\d+)$/m.exec(conf)?.[1]);
  const promised = await promisedDays();
  // `rotate n` daily keeps n old files plus the current one: n + 1 days.
  expect(rotate + 1).toBeLessThanOrEqual(promised);
  expect(maxage).toBeLessThanOrEqual(promised);
  const nginx = await readFile(path.join(DEPLOY, 'nginx', 'waitlist.conf'), 'utf8');
  const logFile = /^\s*(\/\S+) \{$/m.exec(conf)?.[1];
  expect(nginx).toContain(`error_log ${logFile} `);
  expect(nginx).toMatch(/^\s*access_log off;$/m);
});

// Where logrotate is installed (.ci/run installs it), its own parser checks the file, with a state
// file of its own so that nothing of the machine's is read or written.
const LOGROTATE = findBinary(['logrotate'], ['/usr/sbin']);
describeWithEngine('logrotate', LOGROTATE, 'logrotate', () => {
  test('logrotate -d accepts the file and rotates daily, keeping 13 old files', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'logrotate-'));
    try {
      const { stderr } = await promisify(execFile)(LOGROTATE!, ['-d', '-s', path.join(dir, 'status'), path.join(DEPLOY, 'logrotate', 'waitlist-nginx')]);
      expect(stderr).not.toMatch(/^error:/im);
      expect(stderr).toContain('after 1 days (13 rotations)');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
