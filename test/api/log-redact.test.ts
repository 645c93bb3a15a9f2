/** The shared log redaction (api/log/redact.ts): addresses and tokens in every spelling, both processes. */
import { describe, expect, it } from 'vitest';
import { redact, redactPath, MAX_LOGGED_PATH } from '../../api/log/redact.ts';
import { requestLine as frontLine } from '../../api/front/log.ts';
import { errorDetail } from '../../api/sidecar/http/log.ts';

const JWT = 'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiJjbGllbnQtMSJ9.c2lnbmF0dXJlLXBhcnQtaGVyZQ';

const ADDRESS_SPELLINGS: [string, string][] = [
  ['plain @', 'ada@example.com'],
  ['percent-encoded %40', 'ada%40example.com'],
  ['double-encoded %2540', 'ada%2540example.com'],
  ['triple-encoded %252540', 'ada%252540example.com'],
  ['each byte encoded', 'ada%25%34%30example.com'],
  ['full-width ＠ (U+FF20)', 'ada\uff20example.com'],
  ['full-width ＠ percent-encoded', 'ada%EF%BC%A0example.com'],
  ['small ﹫ (U+FE6B)', 'ada\ufe6bexample.com'],
  ['HTML decimal reference', 'ada&#64;example.com'],
  ['HTML hex reference', 'ada&#x40;example.com'],
  ['HTML named reference', 'ada&commat;example.com'],
  ['JS escape', 'ada\\u0040example.com'],
];

describe('log redaction', () => {
  it.each(ADDRESS_SPELLINGS)('redact: an address spelled with %s is masked', (_name, spelled) => {
    const out = redact(`POST /api/v1/waitlist ${spelled} done`);
    expect(out).toBe('POST /api/v1/waitlist [redacted] done');
  });

  it.each(ADDRESS_SPELLINGS)('redactPath: a path segment spelled with %s is masked', (_name, spelled) => {
    // In a request target `#` starts the fragment, so a client can only send it encoded.
    expect(redactPath(`/users/${spelled.replace('#', '%23')}/x?y=1`)).toBe('/users/[redacted]/x');
  });

  it('redact: a JWT, plain or percent-encoded, is masked whole', () => {
    expect(redact(`Bearer ${JWT}`)).toBe('Bearer [redacted]');
    expect(redact(encodeURIComponent(encodeURIComponent(JWT)))).toBe('[redacted]');
  });

  it('redactPath: a JWT or a long opaque credential in a path is masked whole, not cut', () => {
    const longJwt = `${JWT}${'x'.repeat(300)}`;
    expect(redactPath(`/api/v1/tokens/${longJwt}`)).toBe('/api/v1/tokens/[redacted]');
    expect(redactPath('/api/v1/tokens/q8Zr3mK1pW7vN2xT5yB9cD4fG6hJ0kL3')).toBe('/api/v1/tokens/[redacted]');
  });

  it('redactPath: ordinary paths pass unchanged (no false positives on pages and API paths)', () => {
    for (const path of ['/', '/de/danke/', '/api/v1/waitlist/stats', '/sandbox/api/v1/oauth/token', '/openapi.json.md', '/.well-known/api-catalog']) {
      expect(redactPath(path)).toBe(path);
    }
  });

  it('redactPath: no query, no control or non-ASCII characters, at most MAX_LOGGED_PATH characters', () => {
    expect(redactPath('/a\nGET /forged 200 0ms?email=ada@example.com')).toBe('/a?GET?/forged?200?0ms');
    expect(redactPath('/caf\u00e9/\u202eevil')).toBe('/caf?/?evil');
    const long = redactPath(`/${'a/'.repeat(400)}`);
    expect(long.length).toBe(MAX_LOGGED_PATH + 1);
    expect(long.endsWith('…')).toBe(true);
  });

  it('redact: control characters and bidi overrides cannot forge or hide a line', () => {
    expect(redact('a\r\nb\u2028c\u202ed\u0085e')).toBe('a??b?c?d?e');
  });

  it('both processes: the front and the sidecar log lines use the same redaction', () => {
    for (const path of ['/ada%2540example.com', '/ada%EF%BC%A0example.com', `/t/${JWT}`]) {
      const front = frontLine('GET', path, 404, 1);
      // The sidecar writes no request lines; its error lines name the path the same way.
      const sidecar = errorDetail('GET', path, new Error('x'));
      expect(sidecar).toContain(`internal error on GET ${front.split(' ')[1]}: `);
      expect(front).toMatch(/^GET \/(t\/)?\[redacted\] 404 1\.0ms$/);
    }
    const detail = errorDetail('POST', '/x/ada%40example.com', new Error('bad ada＠example.com'));
    expect(detail).not.toMatch(/example\.com/);
  });
});
