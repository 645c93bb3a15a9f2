/**
 * Response headers of static files, decided once per file at start-up. Responses are written
 * from flat `[name, value, name, value, …]` arrays built once (representation.ts), never rebuilt.
 */
import { HTML_TYPE, MARKDOWN_TYPE } from './media-types.ts';

/** No inline script or style anywhere: the site ships its script as a file under /_astro/. */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
  "object-src 'none'",
].join('; ');

/**
 * The site uses no powerful browser feature: each is switched off for it and for anything it
 * could ever embed (W3C Permissions Policy; `()` = allowed for no origin).
 */
export const PERMISSIONS_POLICY = [
  'accelerometer', 'autoplay', 'camera', 'display-capture', 'geolocation', 'gyroscope', 'magnetometer',
  'microphone', 'midi', 'payment', 'publickey-credentials-get', 'screen-wake-lock', 'usb', 'xr-spatial-tracking',
].map((feature) => `${feature}=()`).join(', ');

/** On every static response, pages or not: a stray SVG or text file gets the same protection. */
export const SECURITY_HEADERS: readonly string[] = [
  'Content-Security-Policy', CONTENT_SECURITY_POLICY,
  'X-Content-Type-Options', 'nosniff',
  'Referrer-Policy', 'strict-origin-when-cross-origin',
  'Permissions-Policy', PERMISSIONS_POLICY,
];

/** Astro fingerprints everything under /_astro/: a changed file gets a new name. */
export const CACHE_IMMUTABLE = 'public, max-age=31536000, immutable';
/** Everything else may be stored but is revalidated with its ETag before each use. */
export const CACHE_REVALIDATE = 'public, max-age=0, must-revalidate';

/** One `Link` field value (RFC 8288 §3). */
export function link(href: string, rel: string, type?: string): string {
  return `<${href}>; rel="${rel}"${type ? `; type="${type}"` : ''}`;
}

export interface Described {
  contentType: string;
  cacheControl: string;
  links: readonly string[];
  /** Request fields that select the representation besides Accept-Encoding, e.g. Accept. */
  vary: readonly string[];
  /** False for error pages: they carry no ETag and are never answered with 304. */
  validators: boolean;
}

/**
 * The `Content-Signal:` value of robots.txt (contentsignals.org), or undefined when it has none.
 * The build writes it from CONTENT_SIGNALS, so robots.txt and the header can never disagree.
 */
export function contentSignalOf(robotsTxt: string): string | undefined {
  return /^Content-Signal:[ \t]*(\S.*?)[ \t]*$/im.exec(robotsTxt)?.[1];
}

/**
 * Estimated tokens of a Markdown body, as Cloudflare's `x-markdown-tokens`: one token per four
 * UTF-8 bytes, the usual rule of thumb for BPE tokenizers on English and German prose. Agents use
 * it to budget context, so a fixed, documented estimate beats an exact count for one model.
 */
export function estimateTokens(body: Buffer): number {
  return Math.ceil(body.length / 4);
}

export function agentHeaders(body: Buffer, contentType: string, contentSignal: string | undefined): string[] {
  const isPage = contentType === HTML_TYPE || contentType === MARKDOWN_TYPE;
  return [
    ...(contentType === MARKDOWN_TYPE ? ['x-markdown-tokens', String(estimateTokens(body))] : []),
    ...(isPage && contentSignal ? ['Content-Signal', contentSignal] : []),
  ];
}
