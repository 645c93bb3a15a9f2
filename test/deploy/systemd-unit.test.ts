import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, test } from 'vitest';
import { ROOT } from '../support/stack.ts';
import { describeWithEngine, findBinary } from '../support/engines/require.ts';

const UNIT = path.join(ROOT, 'docs', 'deploy', 'systemd', 'waitlist.service');
const run = promisify(execFile);
const SYSTEMD_ANALYZE = findBinary(['systemd-analyze']);

/** `Key=value` lines of one section of a unit file (the last value wins, as in systemd). */
function section(text: string, name: string): Map<string, string> {
  const out = new Map<string, string>();
  let current = '';
  for (const line of text.split('\n')) {
    const header = /^\[(.+)\]$/.exec(line.trim());
    if (header) current = header[1];
    else if (current === name && /^[A-Za-z]+=/.test(line)) out.set(line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1));
  }
  return out;
}

describe('systemd unit (docs/deploy/systemd/waitlist.service)', () => {
  test('stops the way the product needs: SIGTERM to npm only, time for the 10 s grace and the last commit, then SIGKILL', async () => {
    const service = section(await readFile(UNIT, 'utf8'), 'Service');
    expect(service.get('ExecStart')).toBe('/usr/bin/npm start');
    expect(service.get('KillMode')).toBe('mixed');
    expect(service.get('KillSignal')).toBe('SIGTERM');
    expect(Number(service.get('TimeoutStopSec'))).toBeGreaterThanOrEqual(20);
    expect(service.get('Restart')).toBe('on-failure');
  });

  test('hardened: read-only system, writable state directory only, no new privileges, no capabilities', async () => {
    const service = section(await readFile(UNIT, 'utf8'), 'Service');
    expect(service.get('ProtectSystem')).toBe('strict');
    expect(service.get('StateDirectory')).toBe('waitlist');
    expect(service.get('NoNewPrivileges')).toBe('yes');
    expect(service.get('CapabilityBoundingSet')).toBe('');
    expect(service.get('User')).not.toBe('root');
  });
});

describeWithEngine('systemd-analyze', SYSTEMD_ANALYZE, 'systemd unit checked by systemd-analyze verify', () => {
  test('systemd-analyze verify accepts it with no warning', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'deploy-unit-'));
    try {
      // Where this machine's npm is (Debian: /usr/bin/npm); verify checks that ExecStart exists.
      const npm = (await run('sh', ['-c', 'command -v npm'])).stdout.trim();
      const unit = (await readFile(UNIT, 'utf8')).replace('ExecStart=/usr/bin/npm ', `ExecStart=${npm} `);
      await writeFile(path.join(dir, 'waitlist.service'), unit);
      const { stdout, stderr } = await run(SYSTEMD_ANALYZE!, ['verify', path.join(dir, 'waitlist.service')], { cwd: dir });
      // Unknown keys and bad values are only warnings ("…, ignoring"): any output is a failure.
      expect(stderr + stdout).toBe('');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  test('the check notices a mistake (a misspelt value makes verify talk)', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'deploy-unit-'));
    try {
      const npm = (await run('sh', ['-c', 'command -v npm'])).stdout.trim();
      const unit = (await readFile(UNIT, 'utf8')).replace('ExecStart=/usr/bin/npm ', `ExecStart=${npm} `).replace('KillMode=mixed', 'KillMode=mixd');
      await writeFile(path.join(dir, 'waitlist.service'), unit);
      const { stderr } = await run(SYSTEMD_ANALYZE!, ['verify', path.join(dir, 'waitlist.service')], { cwd: dir });
      expect(stderr).toMatch(/kill mode/i);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
