/**
 * docs/configuration.md is the reference of every setting: its variable tables and
 * api/config.ts name the same variables, both ways, and a default the table states is the one
 * the schema applies. A setting added to the code without a row (or a row left behind when a
 * setting goes) fails here instead of drifting.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigSchema, loadConfig } from '../../api/config.ts';
import { ROOT } from '../support/stack.ts';

interface Row {
  line: number;
  name: string;
  defaultCell: string;
}

const HEADER = /^\|\s*variable\s*\|\s*default\s*\|\s*meaning\s*\|$/;

/** Splits a table row into its cells (no cell of these tables holds a `|`). */
function cells(line: string): string[] {
  return line.trim().replace(/^\|/, '').replace(/\|$/, '').split('|').map((c) => c.trim());
}

/** Every row of every `| variable | default | meaning |` table. */
export function variableRows(markdown: string): Row[] {
  const lines = markdown.split('\n');
  const rows: Row[] = [];
  for (let i = 0; i < lines.length; i++) {
    if (!HEADER.test(lines[i]!.trim())) continue;
    for (let j = i + 2; j < lines.length && lines[j]!.trim().startsWith('|'); j++) {
      const [first = '', defaultCell = ''] = cells(lines[j]!);
      rows.push({ line: j + 1, name: first, defaultCell });
    }
  }
  return rows;
}

/** What the default cell must say for a parsed default: the value in code, or prose when there is none. */
function expectedCell(value: unknown): string | undefined {
  if (value === undefined || (Array.isArray(value) && value.length === 0)) return undefined;
  return `\`${String(value)}\``;
}

describe('configuration reference (docs/configuration.md)', async () => {
  const doc = await readFile(path.join(ROOT, 'docs', 'configuration.md'), 'utf8');
  const rows = variableRows(doc);
  const variables = Object.keys(ConfigSchema.shape);
  const defaults = loadConfig({}) as Record<string, unknown>;

  it('configuration: every row names exactly one variable, once', () => {
    expect(rows.length).toBeGreaterThan(0);
    const malformed = rows.filter((r) => !/^`[A-Z][A-Z0-9_]*`$/.test(r.name)).map((r) => `line ${r.line}: ${r.name}`);
    expect(malformed, 'a row per variable, its name alone in code').toEqual([]);
    const names = rows.map((r) => r.name.slice(1, -1));
    expect(names.filter((n, i) => names.indexOf(n) !== i), 'rows named twice').toEqual([]);
  });

  it('configuration: every variable api/config.ts parses has a row, and every row is a variable it parses', () => {
    const documented = new Set(rows.map((r) => r.name.slice(1, -1)));
    expect(variables.filter((v) => !documented.has(v)), 'variables without a row in docs/configuration.md').toEqual([]);
    expect([...documented].filter((d) => !variables.includes(d)), 'rows naming no variable of api/config.ts').toEqual([]);
  });

  it('configuration: a stated default is the one the schema applies, and a variable with none says so in words', () => {
    const wrong: string[] = [];
    for (const row of rows) {
      const name = row.name.slice(1, -1);
      if (!variables.includes(name)) continue;
      const expected = expectedCell(defaults[name]);
      if (expected === undefined) {
        if (/^`[^`]*`$/.test(row.defaultCell)) wrong.push(`${name}: states ${row.defaultCell}, but the schema has no default`);
      } else if (row.defaultCell !== expected) {
        wrong.push(`${name}: states ${row.defaultCell}, the schema applies ${expected}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it('configuration: the table reader sees rows of every variable table and nothing else', () => {
    const sample = ['| variable | default | meaning |', '| --- | --- | --- |', '| `A_B` | `1` | x |', '', '| engine | selected by | holds |',
      '| --- | --- | --- |', '| `JSON` | default | y |', '| variable | default | meaning |', '| --- | --- | --- |', '| `C` | (none) | z |'].join('\n');
    expect(variableRows(sample).map((r) => [r.name, r.defaultCell])).toEqual([['`A_B`', '`1`'], ['`C`', '(none)']]);
  });
});
