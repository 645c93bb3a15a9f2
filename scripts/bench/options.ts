/**
 * What every bench shares from its command line (`npm run bench -- [NAME …] [--before DIR] …`,
 * passed on unchanged to each bench), and its progress lines on stderr: a line when a phase
 * starts and one every few seconds while it runs, so that a slow phase is never mistaken for a
 * hung one. Result tables go to stdout.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';

const { values } = parseArgs({
  args: process.argv.slice(2),
  options: {
    before: { type: 'string' },
    duration: { type: 'string' },
    rounds: { type: 'string' },
    records: { type: 'string' },
    store: { type: 'string' },
  },
  strict: false,
  allowPositionals: true,
});

/** A positive number given as `--name N` or `--name=N`, or the fallback. */
export function numberOption(name: 'duration' | 'rounds' | 'records', fallback: number): number {
  const raw = values[name];
  if (typeof raw !== 'string') return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value <= 0) {
    console.error(`--${name}=${raw}: expected a positive number`);
    process.exit(2);
  }
  return value;
}

/** The stores a bench measures: `--store json|postgres`, or both. */
export function stores(): ('json' | 'postgres')[] {
  const chosen = typeof values.store === 'string' ? values.store : 'json,postgres';
  return (['json', 'postgres'] as const).filter((store) => chosen.split(',').includes(store));
}

/** The products to measure: this checkout, and with `--before DIR` that checkout as well. */
export function checkouts() {
  const before = typeof values.before === 'string' ? [{ label: 'before' as const, root: path.resolve(values.before) }] : [];
  return [{ label: 'after' as const, root: path.resolve(import.meta.dirname, '..', '..') }, ...before];
}

export type Checkout = ReturnType<typeof checkouts>[number];

/** A temp dir for the bench's data (`bench-NAME-…`), removed when the process exits (a failed bench included). */
export function benchDir(name: string): string {
  const dir = mkdtempSync(path.join(tmpdir(), `bench-${name}-`));
  process.on('exit', () => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

const TICK_MS = 4_000;
const started = performance.now();
const seconds = (since: number) => `${((performance.now() - since) / 1000).toFixed(1)} s`;

export function phase(text: string): void {
  console.error(`[bench +${seconds(started)}] ${text}`);
}

/** Announces a phase and repeats a line while it runs; resolves with its result. */
export async function during<T>(text: string, work: Promise<T> | (() => Promise<T>)): Promise<T> {
  phase(text);
  const since = performance.now();
  const ticker = setInterval(() => phase(`  … ${text} (${seconds(since)})`), TICK_MS);
  try {
    return await (typeof work === 'function' ? work() : work);
  } finally {
    clearInterval(ticker);
  }
}
