/**
 * A strict application/x-www-form-urlencoded parser. URLSearchParams is lenient (bad escapes turn
 * into U+FFFD, repeated names are kept); the contract wants both reported: a malformed body or a
 * repeated field is `400 invalid_request` (and RFC 6749 §3.2 forbids repeated token parameters).
 */

export type FormParse =
  | { ok: true; fields: Map<string, string> }
  | { ok: false; problem: 'malformed' | 'repeated' };

export function parseForm(text: string): FormParse {
  const fields = new Map<string, string>();
  for (const pair of text.split('&')) {
    if (pair === '') continue;
    const eq = pair.indexOf('=');
    const name = decodeComponent(eq === -1 ? pair : pair.slice(0, eq));
    const value = decodeComponent(eq === -1 ? '' : pair.slice(eq + 1));
    if (name === undefined || value === undefined) return { ok: false, problem: 'malformed' };
    if (fields.has(name)) return { ok: false, problem: 'repeated' };
    fields.set(name, value);
  }
  return { ok: true, fields };
}

/** WHATWG urlencoded: `+` is a space, then percent-decoding of UTF-8; a bad escape is an error. */
export function decodeComponent(text: string): string | undefined {
  try {
    return decodeURIComponent(text.replaceAll('+', ' '));
  } catch {
    return undefined;
  }
}
