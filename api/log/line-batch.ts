/**
 * Standard output for JSON log lines, with the front's request lines written in batches: the
 * lines of one event-loop turn go out in one write (up to MAX_PENDING bytes), instead of a write
 * system call per request. Any other line (start-up, warnings, errors) writes what is pending and
 * itself at once, so lines keep their order and a person or a test reading the log sees
 * messages as soon as they are logged.
 *
 * Nothing is lost on the way out: what is pending is written when the process exits, whether by
 * process.exit (the SIGINT/SIGTERM handlers end that way), the end of the event loop or an
 * uncaught error. Only a SIGKILL can lose the current turn's lines.
 */
import type { DestinationStream } from 'pino';

/** How a request line ends: api/front/log.ts logs them with the message REQUEST_MESSAGE (logger.ts). */
export const REQUEST_LINE_END = '"msg":"request"}\n';
/** Pending bytes that are written at once rather than at the end of the turn. */
const MAX_PENDING = 64 * 1024;

export function batchRequestLines(out: DestinationStream): DestinationStream & { flush(): void } {
  let pending = '';
  let scheduled = false;
  const flush = () => {
    scheduled = false;
    if (!pending) return;
    const lines = pending;
    pending = '';
    out.write(lines);
  };
  process.on('exit', flush);
  return {
    flush,
    write(line: string) {
      pending += line;
      if (!line.endsWith(REQUEST_LINE_END) || pending.length >= MAX_PENDING) flush();
      else if (!scheduled) {
        scheduled = true;
        setImmediate(flush);
      }
    },
  };
}
