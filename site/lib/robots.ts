/** /robots.txt, RFC 9309: everything may be crawled, the discovery files above all. */
import { DISCOVERY_PATHS } from '../../api/contract/paths.ts';

export function buildRobotsTxt(baseUrl: string): string {
  return ['User-agent: *', 'Allow: /', '', `Sitemap: ${baseUrl}${DISCOVERY_PATHS.sitemap}`, ''].join('\n');
}
