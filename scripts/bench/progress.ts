/**
 * What a benchmark is doing right now, on stderr (the result tables go to stdout): a line when each
 * phase starts, and during a long phase a line every few seconds, so a run is never silent for
 * more than about five seconds and an operator can tell a slow phase from a hung one.
 */
import { parseArgs } from 'node:util';

/** A line at most this often while a phase runs. */
const TICK_MS = 4_000;
const started = performance.now();

function elapsed(since: number): string {
  return `${((performance.now() - since) / 1000).toFixed(1)} s`;
}

/** Announces a phase. */
export function phase(text: string): void {
  console.error(`[bench +${elapsed(started)}] ${text}`);
}

/** Announces a phase, then repeats a line while it runs; resolves with the phase's result. */
export async function during<T>(text: string, work: Promise<T> | (() => Promise<T>)): Promise<T> {
  phase(text);
  const since = performance.now();
  const ticker = setInterval(() => phase(`  … ${text} (${elapsed(since)})`), TICK_MS);
  try {
    return await (typeof work === 'function' ? work() : work);
  } finally {
    clearInterval(ticker);
  }
}

/** Options that take a value; a bench script with a new one adds its name here. */
const VALUE_OPTIONS = ['duration', 'rounds', 'sizes', 'front', 'sidecar', 'store', 'window-ms', 'claim-records'];

/**
 * The options of the bench scripts, as `--name=value` (any name) or `--name value` (names in
 * VALUE_OPTIONS); scripts/bench/run.ts passes the same arguments to every script, so each ignores
 * the options it has no use for.
 */
export function benchOptions(argv = process.argv.slice(2)): Record<string, string | undefined> {
  const options = Object.fromEntries(VALUE_OPTIONS.map((name) => [name, { type: 'string' as const }]));
  const { values } = parseArgs({ args: argv, options, strict: false, allowPositionals: true });
  const out: Record<string, string | undefined> = {};
  for (const [name, value] of Object.entries(values)) out[name] = typeof value === 'string' ? value : undefined;
  return out;
}

/** A numeric option, or the fallback when absent; a non-number stops the script with a message. */
export function numberOption(name: string, fallback: number, argv = process.argv.slice(2)): number {
  const raw = benchOptions(argv)[name];
  if (raw === undefined) return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value <= 0) {
    console.error(`--${name}=${raw}: expected a positive number`);
    process.exit(2);
  }
  return value;
}
