/**
 * The one logger factory of both processes (pino; docs/operator.md, "Logs"). Every string a caller
 * logs (the message and each field) passes through the shared redaction (api/log/redact.ts), so no
 * address, secret or token reaches a line however it is encoded.
 */
import pino, { type DestinationStream, type Logger, type LoggerOptions } from 'pino';
import pretty from 'pino-pretty';
import type { Config } from '../config.ts';
import { redact } from './redact.ts';

export type { Logger } from 'pino';

/** Request fields the pretty format folds into its message instead of printing them as JSON. */
const REQUEST_FIELDS = ['method', 'path', 'status', 'ms', 'aborted'];

/** Without LOG_FORMAT: pretty when stdout is a terminal, else json. */
export function createLogger(
  name: 'front' | 'sidecar',
  settings: Pick<Config, 'LOG_FORMAT' | 'LOG_LEVEL'>,
  destination?: DestinationStream,
): Logger {
  const format = settings.LOG_FORMAT ?? (process.stdout.isTTY ? 'pretty' : 'json');
  const options: LoggerOptions = {
    name,
    level: settings.LOG_LEVEL,
    base: { pid: process.pid },
    timestamp: pino.stdTimeFunctions.isoTime,
    formatters: { level: (label) => ({ level: label }) },
    hooks: {
      logMethod(args, method) {
        method.apply(this, args.map(redactValue) as Parameters<typeof method>);
      },
    },
  };
  const out = destination ?? linesPerTurn(pino.destination({ dest: 1, sync: true }));
  if (format === 'json') return pino(options, out);
  const stream = pretty({
    destination: out,
    sync: true,
    colorize: destination === undefined && Boolean(process.stdout.isTTY),
    singleLine: true,
    translateTime: 'SYS:HH:MM:ss.l',
    ignore: ['pid', 'hostname', ...REQUEST_FIELDS].join(','),
    messageFormat: (log, messageKey) =>
      typeof log.method === 'string'
        ? `${log.method} ${log.path} ${log.status}${log.aborted ? ' aborted' : ''} ${log.ms}ms`
        : String(log[messageKey] ?? ''),
  });
  return pino(options, stream);
}

/** Pending bytes that are written at once rather than at the end of the turn. */
const MAX_PENDING = 64 * 1024;

/**
 * The lines of one event-loop turn go out in one synchronous write at its end, so a busy front makes
 * one system call for many request lines instead of one each. They keep their order, and nothing is
 * lost when the process exits (process.exit, the end of the loop, an uncaught error): what is
 * pending is written then. Only a SIGKILL can lose the current turn's lines.
 */
function linesPerTurn(out: DestinationStream): DestinationStream {
  let pending = '';
  const flush = () => {
    if (!pending) return;
    const lines = pending;
    pending = '';
    out.write(lines);
  };
  process.on('exit', flush);
  return {
    write(line: string) {
      if (!pending) setImmediate(flush);
      pending += line;
      if (pending.length >= MAX_PENDING) flush();
    },
  };
}

/**
 * redact() returns these strings unchanged: ASCII letters, digits and a little punctuation, with
 * no `@`, `%`, `&`, backslash, space or control character, cannot spell an address or a line
 * break, and without `eyJ` no JWT. Skipping it for them keeps the request line cheap.
 */
const PLAIN = /^[\w./:+=,;()[\]-]*$/;

/** redact(), with the shortcut above (test/api/logs.test.ts holds the two equal). */
export function redactString(text: string): string {
  return PLAIN.test(text) && !text.includes('eyJ') ? text : redact(text);
}

/** Strings redacted; objects one level deep (pino's merging object); errors by message and stack. */
function redactValue(value: unknown): unknown {
  if (typeof value === 'string') return redactString(value);
  if (value instanceof Error) return { type: value.name, message: redact(value.message), stack: value.stack && redact(value.stack) };
  if (value && typeof value === 'object' && !Array.isArray(value)) {
    const out: Record<string, unknown> = {};
    for (const [key, field] of Object.entries(value)) out[key] = field instanceof Error || typeof field === 'string' ? redactValue(field) : field;
    return out;
  }
  return value;
}
