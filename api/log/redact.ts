/**
 * The one log redaction both processes use. Text that reaches a log line may
 * carry an e-mail address or a token in any spelling a client chooses, so each word is judged by
 * what it decodes to: percent-encoding peeled off repeatedly (`%2540` -> `%40` -> `@`), Unicode
 * compatibility forms folded (NFKC: full-width `＠` U+FF20 and small `﹫` U+FE6B become `@`), and
 * character references (`&#64;`, `&commat;`, `\u0040`) recognised. A word that then holds an `@`
 * or a JWT is replaced whole by `[redacted]`.
 */
export const REDACTED = '[redacted]';

/** C0/C1 controls, line/paragraph separators and bidi overrides: each could forge or hide a line. */
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;
/** Where a word ends: whitespace and the characters that delimit path segments and quoted values. */
const WORD = /[^\s/?"'<>`,|]+/g;
const AT_SIGN = /[@\uff20\ufe6b]|&#0*64;?|&#x0*40;?|&commat;|\\u0040|\\x40/i;
/** A JWT's first segment is base64url JSON, which always starts `eyJ` (`{"`). */
const JWT = /eyJ[\w-]{8,}/;
/** Enough rounds for any nesting a client bothers to send; each round must change the word. */
const MAX_DECODE_ROUNDS = 5;

export function redact(text: string): string {
  return text.replace(CONTROL, '?').replace(WORD, (word) => (isSecretWord(word) ? REDACTED : word));
}

/** True when the word, in any of the spellings above, holds an e-mail-like `@` or a JWT. */
export function isSecretWord(word: string): boolean {
  for (const form of spellings(word)) {
    if (AT_SIGN.test(form) || JWT.test(form)) return true;
  }
  return false;
}

function* spellings(word: string): Generator<string> {
  let current = word;
  for (let round = 0; round <= MAX_DECODE_ROUNDS; round++) {
    yield current;
    yield current.normalize('NFKC');
    const next = percentDecode(current);
    if (next === current) return;
    current = next;
  }
}

/** Percent-decoding that never throws: invalid UTF-8 becomes U+FFFD, a stray `%` stays. */
export function percentDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    // An escape that is not UTF-8, or a stray `%`: each run of escapes is decoded on its own.
    return text.replace(/(?:%[0-9a-f]{2})+/gi, (run) => Buffer.from(run.replaceAll('%', ''), 'hex').toString());
  }
}

/** A path is logged up to this many characters; longer ones are cut after redaction. */
export const MAX_LOGGED_PATH = 200;
/** An opaque credential in a path segment: long, base64url-ish, letters mixed with digits. */
const OPAQUE_TOKEN = /^(?=[^/]*\d)(?=[^/]*[a-z])[\w.~+=-]{32,}$/i;

/**
 * A path the masking returns unchanged: unreserved characters and slashes only (no `@`,
 * `%`, `&`, backslash or anything to decode or fold), no `eyJ` (no JWT), no segment long enough
 * for OPAQUE_TOKEN, and short enough not to be cut. Most request paths are; they skip the work.
 */
const PLAIN_PATH = /^[A-Za-z0-9/._~-]*$/;
const LONG_SEGMENT = /[^/]{32}/;

/**
 * The loggable form of a request target: no query or fragment (they carry form values and
 * tokens), each segment that holds an address or a token masked, only printable ASCII (so a
 * client cannot forge log lines), and at most MAX_LOGGED_PATH characters.
 */
export function redactPath(target: string): string {
  const path = target.split('?', 1)[0].split('#', 1)[0];
  const plain = path.length <= MAX_LOGGED_PATH && PLAIN_PATH.test(path) && !LONG_SEGMENT.test(path) && !path.includes('eyJ');
  return plain ? path : maskPath(path);
}

/** redactPath() without the shortcut for plain paths (test/front/request-line.test.ts holds the two equal). */
export function maskPath(path: string): string {
  const masked = path
    .replace(CONTROL, '?')
    .split('/')
    .map((segment) => (isSecretWord(segment) || OPAQUE_TOKEN.test(percentDecode(segment)) ? REDACTED : segment))
    .join('/')
    .replace(/[^\x21-\x7e]/g, '?');
  return masked.length > MAX_LOGGED_PATH ? `${masked.slice(0, MAX_LOGGED_PATH)}…` : masked;
}

/**
 * A server URL (DATABASE_URL, RATE_LIMIT_STORE) for a message or a log line: the password is `***`.
 * (An operator's own URL may still be redacted further by redact() when a line is logged.)
 */
export function urlWithoutPassword(url: string): string {
  const parsed = URL.parse(url);
  if (!parsed) return '(unparsable URL)';
  if (parsed.password) parsed.password = '***';
  return parsed.toString().replace(/\/$/, '');
}
