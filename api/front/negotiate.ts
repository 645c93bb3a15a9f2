/**
 * Content negotiation, pure: request header value in, choice out. Parsing and ranking are
 * negotiator's (jshttp); this module only decides what the ranking means for the front.
 */
import Negotiator from 'negotiator';

export type Variant = 'html' | 'markdown';
export type Coding = 'br' | 'gzip' | 'identity';
/** What a negotiable resource is besides Markdown: a page (HTML) or a document such as /openapi.json (JSON). */
export type Primary = 'html' | 'json';

/**
 * The offers per primary kind, the primary first: the default whenever the ranking leaves the
 * choice open. With their charset, so `text/markdown;charset=utf-8` matches too; `text/x-markdown`
 * is the pre-RFC 7763 name some clients still send.
 */
const MARKDOWN_OFFERS = ['text/markdown;charset=utf-8', 'text/x-markdown;charset=utf-8'] as const;
const OFFERS: Record<Primary, readonly string[]> = {
  html: ['text/html;charset=utf-8', ...MARKDOWN_OFFERS],
  json: ['application/json', ...MARKDOWN_OFFERS],
};
const CODINGS = ['br', 'gzip', 'identity'] as const;

/**
 * The choice per Accept value and primary kind. Browsers send one of a few long Accept values on
 * every page, and ranking one against the offers costs more than the rest of a small page's answer.
 * Values longer than any browser's are not kept, and the table starts afresh when full.
 */
const CHOSEN = new Map<string, Variant>();
const MAX_CHOSEN = 1_000;
const MAX_KEPT_LENGTH = 512;

/**
 * Which representation of a page to send for an `Accept` value: negotiator's ranking, HTML on a
 * full tie and when neither is acceptable, never 406 (RFC 9110 §12.1; docs/front.md, "Negotiation").
 */
export function negotiatePage(accept: string | undefined, primary: Primary = 'html'): Variant {
  if (accept === undefined) return 'html';
  const key = `${primary} ${accept}`;
  let chosen = CHOSEN.get(key);
  if (chosen) return chosen;
  const offers = OFFERS[primary];
  const best = new Negotiator({ headers: { accept } }).mediaType(offers as string[]);
  // 'html' stands for the primary representation, whatever its type.
  chosen = best && best !== offers[0] ? 'markdown' : 'html';
  if (accept.length <= MAX_KEPT_LENGTH) {
    if (CHOSEN.size >= MAX_CHOSEN) CHOSEN.clear();
    CHOSEN.set(key, chosen);
  }
  return chosen;
}

/** Which content-coding to send (RFC 9110 §12.5.3); `identity` unless the client asks. */
export function negotiateCoding(acceptEncoding: string | undefined, available: readonly Coding[]): Coding {
  if (acceptEncoding === undefined || available.length === 1) return 'identity';
  const negotiator = new Negotiator({ headers: { 'accept-encoding': acceptEncoding } }) as EncodingNegotiator;
  // Equal q-values: the smaller encoding wins, whatever order the client listed them in.
  const best = negotiator.encoding(available, { preferred: CODINGS });
  return (best as Coding | undefined) ?? 'identity';
}

/** negotiator 1.x accepts a `preferred` order for ties; @types/negotiator predates it. */
interface EncodingNegotiator {
  encoding(available: readonly string[], options: { preferred: readonly string[] }): string | undefined;
}
