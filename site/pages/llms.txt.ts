/**
 * /llms.txt in the llmstxt.org format: H1, blockquote summary, free text without headings (the
 * instructions for agents), then H2 sections whose every line is `- [name](absolute-url): note`.
 */
import type { APIRoute } from 'astro';
import { LANGS, type Lang } from '../../api/contract/enums.ts';
import { API_DESCRIPTION_VERSION, OPENAPI_VERSION, SANDBOX_CLIENT_ID, SANDBOX_CLIENT_SECRET, STATS_SCOPE, TOKEN_TTL_SECONDS } from '../../api/contract/limits.ts';
import { environmentUrls } from '../../api/contract/paths.ts';
import { BRAND } from '../../api/contract/brand.ts';
import { textFile } from '../../api/docs/respond.ts';
import { llmsFullPath } from '../lib/llms-full-path.ts';
import { getAllPages } from '../lib/pages.ts';
import { BASE_URL } from '../lib/site-config.ts';

const SECTION: Record<Lang, string> = { en: 'English pages', de: 'German pages' };
const FULL_NOTE: Record<Lang, string> = {
  en: 'every English page and the API reference in one Markdown file',
  de: 'every German page and the API reference in one Markdown file (German)',
};

type Link = { name: string; url: string; note: string };

/** One link line; brackets and line breaks would break the llmstxt.org link pattern. */
function line({ name, url, note }: Link): string {
  return `- [${name.replace(/[[\]]/g, '')}](${url}): ${note.replace(/\s+/g, ' ').trim()}`;
}

export const GET: APIRoute = async () => {
  const pages = await getAllPages();
  const prod = environmentUrls(BASE_URL, 'production');
  const sbx = environmentUrls(BASE_URL, 'sandbox');
  const sandboxCredentials = `client id \`${SANDBOX_CLIENT_ID}\`, client secret \`${SANDBOX_CLIENT_SECRET}\``;
  const apiLinks: Link[] = [
    { name: 'Sandbox API index', url: sbx.index, note: `start here: zero-auth index of the sandbox, which stores nothing (${sandboxCredentials})` },
    { name: 'Sandbox token endpoint', url: sbx.token, note: `POST, OAuth 2.0 client credentials with ${sandboxCredentials}` },
    { name: 'Sandbox statistics', url: sbx.stats, note: `GET with a Bearer access token from the sandbox token endpoint (scope \`${STATS_SCOPE}\`); sample numbers` },
    { name: 'OpenAPI document', url: prod.openapi, note: `OpenAPI ${OPENAPI_VERSION} description of the API (version ${API_DESCRIPTION_VERSION}), production and sandbox servers` },
    { name: 'OpenAPI document as Markdown', url: prod.openapiMarkdown, note: 'the same description as readable Markdown' },
    { name: 'API catalog', url: prod.apiCatalog, note: 'RFC 9727 linkset of the APIs with their descriptions, documentation and status' },
    { name: 'API index', url: prod.index, note: 'zero-auth index of the production API' },
    { name: 'Status probe', url: prod.status, note: 'GET, no authentication' },
    { name: 'Statistics', url: prod.stats, note: `GET with a Bearer access token from the token endpoint (scope \`${STATS_SCOPE}\`); aggregate waitlist numbers` },
    { name: 'Token endpoint', url: prod.token, note: `POST, OAuth 2.0 client credentials (HTTP Basic or client_secret_post); JWT access tokens valid ${TOKEN_TTL_SECONDS} s; production clients are issued by the operator on request` },
    { name: 'Authorization server metadata', url: prod.authorizationServerMetadata, note: 'RFC 8414, production issuer' },
    { name: 'Sandbox authorization server metadata', url: sbx.authorizationServerMetadata, note: 'RFC 8414, sandbox issuer' },
    { name: 'Protected resource metadata', url: prod.protectedResourceMetadata, note: 'RFC 9728, production API' },
    { name: 'Sandbox protected resource metadata', url: sbx.protectedResourceMetadata, note: 'RFC 9728, sandbox API' },
    { name: 'MCP server card', url: prod.mcpServerCard, note: `the MCP endpoints ${prod.mcp} and ${sbx.mcp} (Streamable HTTP): tools status, join_waitlist, waitlist_stats` },
    { name: 'Agent Skills index', url: prod.agentSkills, note: 'one skill: join the waitlist, or try the API in the sandbox' },
  ];
  const out = [
    `# ${BRAND.product}`,
    '',
    `> ${BRAND.productLong}. ${BRAND.tagline.en} This site is its early-access waitlist, in English and German, with a Markdown twin of every page and a small public API: waitlist sign-up, status probe, OAuth 2.0 client-credentials tokens and aggregate waitlist statistics.`,
    '',
    'Instructions for agents:',
    '',
    '- Crawl sequentially with one client; do not send requests in parallel.',
    '- After a `429` answer, wait the number of seconds in its `Retry-After` header before the next request.',
    '- Read the Markdown twins linked below rather than the HTML pages (or send `Accept: text/markdown` to a page URL).',
    `- Start with the sandbox at ${sbx.index}: it stores nothing and accepts the OAuth client with client id \`${SANDBOX_CLIENT_ID}\` and client secret \`${SANDBOX_CLIENT_SECRET}\`.`,
    '- Sign up an e-mail address only with the explicit consent of its owner.',
  ];
  for (const lang of LANGS) {
    const listed = pages.filter((p) => p.lang === lang && p.kind === 'page');
    if (listed.length === 0) continue;
    out.push('', `## ${SECTION[lang]}`, '');
    for (const page of listed) out.push(line({ name: page.title, url: `${BASE_URL}${page.twin}`, note: page.description }));
  }
  out.push('', '## API', '', ...apiLinks.map(line));
  out.push('', '## Full text', '', ...LANGS.map((lang) => line({ name: `llms-full.txt (${lang})`, url: `${BASE_URL}${llmsFullPath(lang)}`, note: FULL_NOTE[lang] })));
  return textFile(`${out.join('\n')}\n`, 'text/plain; charset=utf-8');
};
