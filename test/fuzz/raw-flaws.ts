/**
 * The raw channel: a generated request written as bytes on a socket, optionally with one flaw
 * that Node's HTTP parser (or a careful server) must refuse: lying or non-numeric
 * Content-Length, Transfer-Encoding with Content-Length and invalid methods among them; and the
 * absolute-form of the target, which a server must accept (RFC 9112 §3.2.2) though many refuse it.
 * Every raw request says `Connection: close` and half-closes after writing, so the end of the
 * answer is the end of the connection.
 */
import fc from 'fast-check';
import type { FuzzRequest } from './requests.ts';

export const RAW_FLAWS = [
  'bare-lf', // header lines end in LF only
  'bad-version', // HTTP/1.7
  'no-colon', // a header line without a colon
  'space-before-colon', // `Name : value` (RFC 9112 §5.1 says reject)
  'nul-in-value',
  'obs-fold', // a continuation line (obsolete line folding)
  'length-and-chunked', // Transfer-Encoding and Content-Length together
  'two-lengths', // two different Content-Length values
  'word-length', // Content-Length: abc
  'negative-length',
  'lying-length', // Content-Length larger than the body that follows: the body never completes
  'truncated-chunks', // chunked body without its last chunk: never completes
  'bad-chunk-size', // chunk size `zz`
  'unknown-coding', // Transfer-Encoding: gzip, chunked-not
  'bad-method-char', // `GE(T`
  'huge-header', // one header over Node's 16 KB header limit
  'absolute-form', // `GET http://evil.example/api/v1/status`: answered as the origin-form
  'no-host',
  'two-hosts',
] as const;
export type RawFlaw = (typeof RAW_FLAWS)[number];

const LENGTH_FLAWS: string[] = ['two-lengths', 'word-length', 'negative-length', 'lying-length'];
const CHUNK_FLAWS: string[] = ['length-and-chunked', 'truncated-chunks', 'bad-chunk-size'];

export function rawFlaw(): fc.Arbitrary<RawFlaw> {
  return fc.constantFrom(...RAW_FLAWS);
}

/** A request whose body never completes: closing without an answer is a fair reply to it. */
export function incomplete(req: FuzzRequest): boolean {
  return req.flaw === 'lying-length' || req.flaw === 'truncated-chunks';
}

/** The framing and the request line and headers as the raw channel writes them. */
export function rawBytes(req: FuzzRequest): Buffer {
  const { flaw } = req;
  const eol = flaw === 'bare-lf' ? '\n' : '\r\n';
  const method = flaw === 'bad-method-char' ? `${req.method.slice(0, 1)}(${req.method.slice(1)}` : req.method;
  const version = flaw === 'bad-version' ? 'HTTP/1.7' : 'HTTP/1.1';
  const target = flaw === 'absolute-form' ? `http://evil.example${req.target}` : req.target;
  const lines: string[] = [`${method} ${target} ${version}`];
  if (flaw !== 'no-host') lines.push('Host: fuzz.example');
  if (flaw === 'two-hosts') lines.push('Host: other.example');
  for (const [name, value] of req.headers) lines.push(`${name}: ${value}`);
  lines.push('Connection: close');

  const body = Buffer.from(req.body);
  let payload: Buffer = body;
  const chunked = (req.chunked && !LENGTH_FLAWS.includes(flaw ?? '')) || CHUNK_FLAWS.includes(flaw ?? '');
  if (chunked) {
    lines.push('Transfer-Encoding: chunked');
    const size = flaw === 'bad-chunk-size' ? 'zz' : body.length.toString(16);
    const chunk = body.length || flaw === 'bad-chunk-size' ? Buffer.concat([Buffer.from(`${size}\r\n`), body, Buffer.from('\r\n')]) : Buffer.alloc(0);
    payload = flaw === 'truncated-chunks' ? chunk : Buffer.concat([chunk, Buffer.from('0\r\n\r\n')]);
  }
  if (!chunked || flaw === 'length-and-chunked') {
    const length = flaw === 'word-length' ? 'abc' : flaw === 'negative-length' ? '-1' : flaw === 'lying-length' ? String(body.length + 10) : String(payload.length);
    if (body.length || flaw) lines.push(`Content-Length: ${length}`);
    if (flaw === 'two-lengths') lines.push(`Content-Length: ${payload.length + 1}`);
  }
  if (flaw === 'unknown-coding') lines.push('Transfer-Encoding: gzip, chunked-not');
  if (flaw === 'no-colon') lines.push('X-Broken header line');
  if (flaw === 'space-before-colon') lines.push('X-Spaced : value');
  if (flaw === 'nul-in-value') lines.push('X-Nul: a\u0000b');
  if (flaw === 'obs-fold') lines.push('X-Folded: first', ' continued');
  if (flaw === 'huge-header') lines.push(`X-Huge: ${'h'.repeat(20_000)}`);
  return Buffer.concat([Buffer.from(lines.join(eol) + eol + eol, 'latin1'), payload]);
}
