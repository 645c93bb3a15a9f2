/**
 * What the operator commands (scripts/waitlist.ts, scripts/clients.ts) share: subcommands parsed
 * with node:util parseArgs (strict: an unknown flag is an error; `--flag value` and `--flag=value`
 * both work; `--` ends the flags, for an argument that starts with `-`), `--help` on every level
 * (stdout, exit 0), usage errors that name the problem and print the usage (stderr, exit 2), and
 * one way to print failures (exit 1) and write large outputs.
 */
import { once } from 'node:events';
import { createInterface } from 'node:readline/promises';
import { parseArgs } from 'node:util';
import { StartupError } from '../api/sidecar/store/errors.ts';

export const EXIT = { ok: 0, error: 1, usage: 2, notFound: 3 } as const;

type OptionSpec = { type: 'string' | 'boolean'; short?: string; choices?: readonly string[] };

export interface Parsed {
  values: Record<string, string | boolean | undefined>;
  positionals: string[];
}

export interface Subcommand {
  /** Flags and arguments, e.g. `show [--json] EMAIL`. */
  synopsis: string;
  /** What it does; further lines explain options. */
  help: string;
  options?: Record<string, OptionSpec>;
  /** Names of the arguments, in order; a name in brackets (`[EMAIL]`) is optional. */
  args?: string[];
  run(parsed: Parsed): Promise<number>;
}

export class UsageError extends Error {}

export interface Program {
  /** How the operator calls it, e.g. `npm run waitlist --`. */
  name: string;
  summary: string;
  commands: Record<string, Subcommand>;
  /** Lines after the command list (exit codes, environment). */
  footer: string;
}

/** The overview shows each command's first sentence; `COMMAND --help` shows all of its help. */
function programUsage(program: Program): string {
  const lines = Object.values(program.commands).map((command) => {
    // The prose comes first; option lines (indented) follow it.
    const text = command.help.split(/\n(?=\s)/, 1)[0].replace(/\s+/g, ' ').trim();
    const end = text.search(/\.(\s+[A-Z]|$)/);
    return `  ${program.name} ${command.synopsis}\n      ${end === -1 ? text : text.slice(0, end + 1)}`;
  });
  return `${program.summary}\n\nusage:\n${lines.join('\n')}\n\n${program.footer}\n`;
}

function commandUsage(program: Program, command: Subcommand): string {
  return `usage: ${program.name} ${command.synopsis}\n\n${command.help}\n`;
}

/** Parses `argv` (without node and script), runs the subcommand, and resolves with the exit code. */
export async function runProgram(program: Program, argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined) return usageError(`missing command`, programUsage(program));
  if (name === '--help' || name === '-h' || name === 'help') {
    process.stdout.write(programUsage(program));
    return EXIT.ok;
  }
  const command = Object.hasOwn(program.commands, name) ? program.commands[name] : undefined;
  if (!command) return usageError(`unknown command ${JSON.stringify(name)}`, programUsage(program));
  try {
    const parsed = parseCommand(command, rest);
    if (parsed.values.help) {
      process.stdout.write(commandUsage(program, command));
      return EXIT.ok;
    }
    return await command.run(parsed);
  } catch (error) {
    // The parser's errors, and a value only the command can judge (a date, say): the usage follows.
    if (error instanceof UsageError || (error as NodeJS.ErrnoException).code?.startsWith('ERR_PARSE_ARGS')) {
      return usageError((error as Error).message, commandUsage(program, command));
    }
    throw error;
  }
}

function parseCommand(command: Subcommand, args: string[]): Parsed {
  // parseArgs reads `type` and `short` of each option and leaves `choices` to the check below.
  const options: Record<string, OptionSpec> = { help: { type: 'boolean', short: 'h' }, ...command.options };
  const { values, positionals } = parseArgs({ args, options, allowPositionals: true, strict: true });
  if (values.help) return { values, positionals };
  for (const [key, spec] of Object.entries(command.options ?? {})) {
    const value = values[key];
    if (spec.choices && typeof value === 'string' && !spec.choices.includes(value)) {
      throw new UsageError(`--${key} must be one of ${spec.choices.join(', ')}, not ${JSON.stringify(value)}`);
    }
  }
  const wanted = command.args ?? [];
  const required = wanted.filter((arg) => !arg.startsWith('['));
  if (positionals.length < required.length) throw new UsageError(`missing ${required[positionals.length]}`);
  if (positionals.length > wanted.length) throw new UsageError(`unexpected argument ${JSON.stringify(positionals[wanted.length])}`);
  positionals.forEach((value, i) => {
    if (!value.trim()) throw new UsageError(`${wanted[i].replace(/^\[(.*)\]$/, '$1')} is empty`);
  });
  return { values, positionals };
}

function usageError(problem: string, usage: string): number {
  process.stderr.write(`error: ${problem}\n\n${usage}`);
  return EXIT.usage;
}

/** Runs a program as the process: exit code from it; a StartupError's message alone, anything else with the program's name. */
export function main(program: Program, label: string): void {
  // `… export | head` closes the pipe early: that is not an error.
  process.stdout.on('error', (error: NodeJS.ErrnoException) => process.exit(error.code === 'EPIPE' ? 0 : 1));
  runProgram(program, process.argv.slice(2)).then(
    (code) => {
      process.exitCode = code;
    },
    (error: unknown) => {
      const detail = error instanceof Error ? error.message : String(error);
      process.stderr.write(`${error instanceof StartupError ? detail : `${label}: ${detail}`}\n`);
      process.exitCode = EXIT.error;
    },
  );
}

/** Writes to stdout and waits for it to drain, so a large output does not pile up in memory. */
export async function write(text: string): Promise<void> {
  if (!process.stdout.write(text)) await once(process.stdout, 'drain');
}

/** A time the operator typed as `--name`: a date (UTC midnight) or an ISO date and time, in ms. */
export function timeOption(name: string, value: string): number {
  const ms = /^\d{4}-\d{2}-\d{2}/.test(value) ? Date.parse(value) : Number.NaN;
  if (Number.isNaN(ms)) throw new UsageError(`--${name} must be a date or time such as 2026-11-01 or 2026-11-01T12:00:00Z, not ${JSON.stringify(value)}`);
  return ms;
}

/** A number the operator typed as `--name`, at least `min` (and at most `max`); undefined when not given. */
export function numberOption(name: string, value: string | boolean | undefined, { min, max = Infinity, whole = false }: { min: number; max?: number; whole?: boolean }): number | undefined {
  if (value === undefined) return undefined;
  const n = typeof value === 'string' && /^\d+(\.\d+)?$/.test(value) ? Number(value) : Number.NaN;
  if (n >= min && n <= max && (!whole || Number.isInteger(n))) return n;
  const range = max === Infinity ? `of at least ${min}` : `from ${min} to ${max}`;
  throw new UsageError(`--${name} must be ${whole ? 'a whole number' : 'a number'} ${range}, not ${JSON.stringify(value)}`);
}

/** One JSON document on one line (for --json). */
export function printJson(value: unknown): void {
  process.stdout.write(`${JSON.stringify(value)}\n`);
}

/**
 * Asks on the terminal whether to go on (y or yes): undefined to go on, else the exit code to stop
 * with. Without a terminal to ask on it is a usage error naming `what` would happen.
 */
export async function askToGoOn(question: string, what: string, declined: { message: string; code: number }): Promise<number | undefined> {
  if (!process.stdin.isTTY) {
    process.stderr.write(`error: ${what}: confirm on a terminal, or add --yes\n`);
    return EXIT.usage;
  }
  const rl = createInterface({ input: process.stdin, output: process.stderr });
  const answer = await rl.question(`${question} [y/N] `).finally(() => rl.close());
  if (/^y(es)?$/i.test(answer.trim())) return undefined;
  process.stderr.write(`${declined.message}\n`);
  return declined.code;
}
