/** /robots.txt, RFC 9309, with the operator's Content Signals (docs/site.md, "Discovery files"). */
import { DISCOVERY_PATHS } from '../../api/contract/paths.ts';

/** Each named with the rules of `*`, so a crawler that looks for its own user agent finds the policy. */
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
