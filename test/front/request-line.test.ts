/**
 * The request line's cheap path gives what the full one gives (the plain-path shortcut of the path
 * redaction), and request lines are all out when the process ends, however it ends.
 */
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { createLogger } from '../../api/log/logger.ts';
import { maskPath, redactPath } from '../../api/log/redact.ts';

const run = promisify(execFile);
const LOGGER = path.resolve(import.meta.dirname, '../../api/log/logger.ts');

describe('request line', () => {
  test("request line: the plain-path shortcut of the path redaction gives the full redaction's answer (seeded)", () => {
    const pieces = ['a', 'Z', '0', '9', '/', '.', '-', '_', '~', '@', '%40', '%2540', '＠', 'eyJ', 'eyJhbGciOiJIUzI1NiJ9', '&#64;', ' ', '\n', 'é', 'abcdefghij0123456789abcdefghij012', '%2F', '?', '#'];
    const target = fc.oneof(fc.string(), fc.array(fc.constantFrom(...pieces), { maxLength: 16 }).map((parts) => parts.join('')));
    fc.assert(fc.property(target, (value) => redactPath(value) === maskPath(value.split('?', 1)[0].split('#', 1)[0])), { seed: 14, numRuns: 5_000 });
    expect(redactPath('/api/v1/waitlist?email=a@b.example')).toBe('/api/v1/waitlist');
    expect(redactPath('/x/ab12cd34ef56gh78ij90kl12mn34op56qr')).toBe('/x/[redacted]');
  });

  test('request line: an address in the path of a request line is redacted', () => {
    const writes: string[] = [];
    const logger = createLogger('front', { LOG_FORMAT: 'json', LOG_LEVEL: 'info' }, { write: (text: string) => void writes.push(text) });
    logger.info({ reqId: 'r', method: 'GET', path: '/a@b.example' }, 'request');
    expect(JSON.parse(writes[0]).path).toBe('/[redacted]');
  });

  // The front ends on SIGINT/SIGTERM with process.exit (api/front/main.ts, scripts/start.ts).
  for (const [how, ending] of [
    ['process.exit after a signal', "process.once('SIGTERM', () => process.exit(0)); process.kill(process.pid, 'SIGTERM');"],
    ['an uncaught error', "throw new Error('boom');"],
    ['process.exit in the same turn', 'process.exit(3);'],
  ] as const) {
    test(`request line: no line is lost when the process ends by ${how}`, async () => {
      const script = `
        import { createLogger } from ${JSON.stringify(LOGGER)};
        const logger = createLogger('front', { LOG_FORMAT: 'json', LOG_LEVEL: 'info' });
        for (let n = 0; n < 500; n++) logger.info({ reqId: 'r-' + n, method: 'GET', path: '/', status: 200, ms: 0.1 }, 'request');
        ${ending}`;
      const result = await run(process.execPath, ['--input-type=module', '-e', script]).catch((error: { stdout: string }) => error);
      const ids = result.stdout.trim().split('\n').map((line) => JSON.parse(line).reqId);
      expect(ids).toEqual(Array.from({ length: 500 }, (_, n) => `r-${n}`));
    });
  }
});
