/**
 * Headers for agents, decided once per file when dist/ is loaded: the operator's content-use
 * preferences (Content Signals) on pages and twins, and a token estimate on Markdown answers.
 */
import type { RawHeaders } from './headers.ts';
import { HTML_TYPE, MARKDOWN_TYPE } from './media-types.ts';

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

export function agentHeaders(body: Buffer | undefined, contentType: string, contentSignal: string | undefined): RawHeaders {
  const isPage = contentType === HTML_TYPE || contentType === MARKDOWN_TYPE;
  return [
    ...(contentType === MARKDOWN_TYPE && body ? ['x-markdown-tokens', String(estimateTokens(body))] : []),
    ...(isPage && contentSignal ? ['Content-Signal', contentSignal] : []),
  ];
}
