/** RFC 9110 §8.3.1: media type = type "/" subtype *( OWS ";" OWS parameter ), case-insensitive. */
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/** The lower-cased `type/subtype` of a Content-Type value, parameters dropped; undefined if malformed. */
export function mediaTypeOf(header: string | null): string | undefined {
  if (!header) return undefined;
  const essence = header.split(';', 1)[0].trim().toLowerCase();
  const [type, subtype, extra] = essence.split('/');
  if (extra !== undefined || !type || !subtype || !TOKEN.test(type) || !TOKEN.test(subtype)) return undefined;
  return essence;
}
