/**
 * A strict application/x-www-form-urlencoded parser. URLSearchParams is lenient (bad escapes turn
 * into U+FFFD, repeated names are kept); the contract wants both reported: a malformed body or a
 * repeated field is `400 invalid_request` (and RFC 6749 §3.2 forbids repeated token parameters).
 */
import { decodeUtf8 } from './body.ts';
import { ApiError } from './errors.ts';

/** The fields of a form body; 400 invalid_request for bytes that are not UTF-8, a bad escape or a repeated name. */
export function parseForm(bytes: Uint8Array): Map<string, string> {
  const text = decodeUtf8(bytes);
  if (text === undefined) throw new ApiError('invalid_request');
  const fields = new Map<string, string>();
  for (const pair of text.split('&')) {
    if (pair === '') continue;
    const eq = pair.indexOf('=');
    const name = decodeComponent(eq === -1 ? pair : pair.slice(0, eq));
    const value = decodeComponent(eq === -1 ? '' : pair.slice(eq + 1));
    if (name === undefined || value === undefined || fields.has(name)) throw new ApiError('invalid_request');
    fields.set(name, value);
  }
  return fields;
}

/** WHATWG urlencoded: `+` is a space, then percent-decoding of UTF-8; a bad escape is an error. */
export function decodeComponent(text: string): string | undefined {
  try {
    return decodeURIComponent(text.replaceAll('+', ' '));
  } catch {
    return undefined;
  }
}
