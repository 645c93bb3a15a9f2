import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildOpenApiDocument } from '../../api/docs/openapi.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));
const cli = join(root, 'node_modules/@redocly/cli/bin/cli.js');
const config = join(root, 'test/redocly.yaml');

interface LintReport {
  totals: { errors: number; warnings: number; ignored: number };
  problems: { ruleId: string; severity: string; message: string; location: { pointer: string }[] }[];
}

async function lint(file: string): Promise<LintReport> {
  // Redocly exits 1 on errors; the JSON report on stdout is what the test reads either way.
  const result = await promisify(execFile)(process.execPath, [cli, 'lint', '--config', config, '--format=json', file], {
    cwd: root,
    env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', NO_COLOR: '1' },
    maxBuffer: 16 * 1024 * 1024,
  }).catch((error: { stdout?: string }) => ({ stdout: error.stdout ?? '' }));
  return JSON.parse(result.stdout.slice(result.stdout.indexOf('{'))) as LintReport;
}

describe('redocly lint (recommended ruleset)', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'openapi-lint-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('the generated document has zero errors and zero warnings', async () => {
    // A production-shaped origin: `no-server-example.com` rightly warns about localhost servers.
    const file = join(dir, 'openapi.json');
    await writeFile(file, JSON.stringify(buildOpenApiDocument('https://waitlist.example.net'), null, 2));
    const report = await lint(file);
    const problems = report.problems.map((p) => `${p.severity} ${p.ruleId}: ${p.message} at ${p.location[0]?.pointer}`);
    expect(problems).toEqual([]);
    expect(report.totals).toMatchObject({ errors: 0, warnings: 0 });
  });

  it('the linter is live: a document without operation summaries fails', async () => {
    const doc = buildOpenApiDocument('https://waitlist.example.net');
    for (const item of Object.values(doc.paths)) for (const op of Object.values(item)) delete (op as { summary?: string }).summary;
    const file = join(dir, 'broken.json');
    await writeFile(file, JSON.stringify(doc));
    const report = await lint(file);
    expect(report.problems.some((p) => p.ruleId === 'operation-summary')).toBe(true);
  });
});
