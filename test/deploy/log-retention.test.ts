/**
 * The privacy notice promises how long technical logs are kept; the deploy guide's log settings
 * must keep that promise (and follow it when the notice changes).
 */
import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { expect, test } from 'vitest';
import { ROOT } from '../support/stack.ts';
import { findBinary } from '../support/engines/require.ts';

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

// logrotate is not part of the CI image (.ci/run); where it is installed, its own parser checks the file.
const LOGROTATE = findBinary(['logrotate'], ['/usr/sbin']);
test.skipIf(!LOGROTATE)(`logrotate -d accepts the file${LOGROTATE ? '' : ' (skipped: logrotate is not installed)'}`, async () => {
  const { stderr } = await promisify(execFile)(LOGROTATE!, ['-d', path.join(DEPLOY, 'logrotate', 'waitlist-nginx')]);
  expect(stderr).not.toMatch(/error/i);
});
