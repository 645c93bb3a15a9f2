/**
 * /robots.txt, RFC 9309: everything may be crawled, the discovery files above all. The operator's
 * content-use preferences follow as Content Signals (contentsignals.org), from CONTENT_SIGNALS;
 * the front repeats that line as a `Content-Signal` header on pages and twins.
 */
import { DISCOVERY_PATHS } from '../../api/contract/paths.ts';

/**
 * The AI crawlers robots.txt names, each with the same rules and Content Signals as `*`, so a
 * reader that looks for its own user agent finds the policy stated for it.
 */
export const AI_CRAWLERS = ['GPTBot', 'OAI-SearchBot', 'ChatGPT-User', 'ClaudeBot', 'Claude-User', 'Google-Extended', 'PerplexityBot', 'CCBot', 'Applebot-Extended', 'meta-externalagent'] as const;

export function buildRobotsTxt(baseUrl: string, contentSignals: string, aiCrawlers: readonly string[]): string {
  // RFC 9309 §2.2.1: a crawler obeys only the group naming it, so each named group repeats the rules of `*`.
  const group = (agent: string) => [`User-agent: ${agent}`, ...(contentSignals ? [`Content-Signal: ${contentSignals}`] : []), 'Allow: /', ''];
  return [
    '# Content Signals (https://contentsignals.org/): search = building a search index and showing',
    '# links and excerpts; ai-input = using the content as input to an AI answer (grounding, RAG);',
    '# ai-train = training or fine-tuning AI models. yes: allowed, no: not allowed.',
    ...group('*'),
    ...aiCrawlers.flatMap(group),
    `Sitemap: ${baseUrl}${DISCOVERY_PATHS.sitemap}`,
    '',
  ].join('\n');
}
