import { spawn } from 'node:child_process';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { BRAND } from '../../api/contract/brand.ts';
import { isSample, productionGuardProblem, sampleDetails } from '../../site/lib/production-guard.ts';
import { ROOT, stackEnv } from '../support/stack.ts';

const REAL = {
  name: 'Nimbus Labs GmbH',
  street: 'Torstraße 49',
  city: '10119 Berlin',
  register: 'Amtsgericht Berlin-Charlottenburg, HRB 245810 B',
  vatId: 'DE318224711',
  representative: 'Jana Beispiel',
  email: 'hello@nimbus-labs.de',
  privacyEmail: 'privacy@nimbus-labs.de',
};
const https = { BASE_URL: 'https://nimbus-labs.de', SECURITY_CONTACT: 'mailto:security@nimbus-labs.de', ALLOW_SAMPLE_DETAILS: false };

describe('production guard: what counts as a sample', () => {
  test.each(['hello@example.org', 'mailto:security@example.org', 'https://example.com/security', 'a@shop.example', 'Musterstraße 1', 'Erika Mustermann', 'HRB 000000', 'DE000000000'])(
    'sample: %s',
    (value) => expect(isSample(value)).toBe(true),
  );
  test.each(['hello@nimbus-labs.de', 'mailto:security@myexample.org', 'Torstraße 49', 'HRB 245810 B', 'DE318224711', '10115 Berlin'])(
    'real: %s',
    (value) => expect(isSample(value)).toBe(false),
  );

  test('the shipped operator details and security contact are all reported, each with where to change it', () => {
    const found = sampleDetails('mailto:security@example.org');
    for (const key of ['street', 'register', 'vatId', 'representative', 'email', 'privacyEmail']) {
      expect(found.join('\n')).toContain(`operator.${key}`);
    }
    expect(found.join('\n')).toContain('SECURITY_CONTACT');
    expect(found.join('\n')).toContain(BRAND.operator.street);
  });
});

describe('production guard: when it refuses', () => {
  test('https:// with sample details -> refused with the list of what to fill in and the override', () => {
    const problem = productionGuardProblem({ ...https, SECURITY_CONTACT: 'mailto:security@example.org' }, { ...REAL, register: 'HRB 000000' });
    expect(problem).toContain('register court and number: "HRB 000000"');
    expect(problem).toContain('security contact: "mailto:security@example.org" (SECURITY_CONTACT)');
    expect(problem).not.toContain('street');
    expect(problem).toContain('ALLOW_SAMPLE_DETAILS=true');
  });
  test('https:// with every detail filled in -> let through', () => {
    expect(productionGuardProblem(https, REAL)).toBeUndefined();
  });
  test('https:// with samples and ALLOW_SAMPLE_DETAILS=true (staging) -> let through', () => {
    expect(productionGuardProblem({ ...https, ALLOW_SAMPLE_DETAILS: true }, BRAND.operator)).toBeUndefined();
  });
  test('http:// (a local or test site) with samples -> let through', () => {
    expect(productionGuardProblem({ ...https, BASE_URL: 'http://localhost:4321' }, BRAND.operator)).toBeUndefined();
  });
});

/** Runs a project entry point with the given settings; resolves with its exit code and output. */
function run(args: string[], settings: Record<string, string>): Promise<{ code: number | null; output: string }> {
  const child = spawn(process.execPath, args, { cwd: ROOT, env: stackEnv(settings), stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  return new Promise((resolve) => child.on('exit', (code) => resolve({ code, output })));
}

// The shipped repository still holds the samples: these hold as long as api/contract/brand.ts does.
// Each case is a process of its own: they run side by side.
describe.runIf(sampleDetails('mailto:security@example.org').length > 0)('production guard in the real entry points (shipped samples)', { concurrent: true }, () => {
  const dirs: string[] = [];
  afterAll(async () => {
    for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
  });

  test('npm start with an https:// BASE_URL and the samples -> exit 1 before building, listing what to fill in', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'guard-start-'));
    dirs.push(dir);
    const dist = path.join(dir, 'dist');
    const { code, output } = await run([path.join(ROOT, 'scripts/start.ts')], {
      BASE_URL: 'https://waitlist.nimbus-labs.de', PORT: '0', SIDECAR_PORT: '0', DATA_DIR: path.join(dir, 'data'), DIST_DIR: dist,
    });
    expect(code).toBe(1);
    expect(output).toContain('operator.street');
    expect(output).toContain('SECURITY_CONTACT');
    expect(output).not.toMatch(/building the site/);
    expect(await readdir(dir)).toEqual([]);
  });

  test('astro build with an https:// BASE_URL and the samples -> the config refuses (exit 1)', async () => {
    const { code, output } = await run(['--input-type=module', '-e', "await import('./astro.config.mjs')"], { BASE_URL: 'https://waitlist.nimbus-labs.de' });
    expect(code).toBe(1);
    expect(output).toContain('operator.register');
  });

  test('astro build with ALLOW_SAMPLE_DETAILS=true (staging) -> the config loads', async () => {
    const { code, output } = await run(['--input-type=module', '-e', "await import('./astro.config.mjs')"], { BASE_URL: 'https://staging.nimbus-labs.de', ALLOW_SAMPLE_DETAILS: 'true' });
    expect(output).toBe('');
    expect(code).toBe(0);
  });
});
