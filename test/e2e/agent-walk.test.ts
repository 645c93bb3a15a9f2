/**
 * An agent that knows nothing but the base URL and reads Markdown: from `/` with
 * `Accept: text/markdown`, it follows only what the service publishes (the api-catalog Link, the
 * catalog, the OpenAPI document, the sandbox token URL and the credentials the document states)
 * to a successful sandbox statistics call, and prints how many requests that took.
 */
import { expect, inject, it } from 'vitest';
import type { OpenApiDocument } from '../../api/docs/openapi.ts';
import type { OperationObject } from '../../api/docs/operations.ts';
import { responseViolations } from '../support/openapi.ts';

const { baseUrl } = inject('stack');

let requests = 0;

async function fetchOk(url: string, init: RequestInit = {}): Promise<Response> {
  requests += 1;
  const response = await fetch(url, init);
  if (!response.ok) throw new Error(`${init.method ?? 'GET'} ${url} -> ${response.status}: ${await response.text()}`);
  return response;
}

/** RFC 8288 Link header, or else a <link rel="api-catalog"> / <a rel="api-catalog"> in the HTML. */
function catalogLink(response: Response, html: string): string | undefined {
  const header = /<([^>]+)>\s*;[^,]*\brel="?api-catalog"?/.exec(response.headers.get('link') ?? '')?.[1];
  const element = /<(?:link|a)\b[^>]*\brel="api-catalog"[^>]*\bhref="([^"]+)"|<(?:link|a)\b[^>]*\bhref="([^"]+)"[^>]*\brel="api-catalog"/.exec(html);
  const target = header ?? element?.[1] ?? element?.[2];
  return target ? new URL(target, response.url).href : undefined;
}

it('agent walk: / as Markdown -> api-catalog -> OpenAPI -> sandbox token -> sandbox statistics (200, valid against the document)', async () => {
  // 1. The home page, as Markdown, names the catalog.
  const home = await fetchOk(`${baseUrl}/`, { headers: { accept: 'text/markdown' } });
  expect(home.headers.get('content-type')).toMatch(/^text\/markdown/);
  const catalogUrl = catalogLink(home, await home.text());
  expect(catalogUrl).toBeDefined();

  // 2. The catalog lists the APIs; the sandbox is the one whose status probe says so (the MCP
  // endpoints' entries link no status probe).
  const catalog = (await (await fetchOk(catalogUrl!)).json()) as { linkset: Record<string, { href: string; type?: string }[] | string>[] };
  let sandbox: (typeof catalog.linkset)[number] | undefined;
  for (const context of catalog.linkset) {
    const status = (context.status as { href: string }[] | undefined)?.[0]?.href;
    if (!status) continue;
    const probe = (await (await fetchOk(status)).json()) as { environment: string };
    if (probe.environment === 'sandbox') sandbox = context;
  }
  expect(sandbox).toBeDefined();

  // 3. Its service-desc is the OpenAPI document.
  const descUrl = (sandbox!['service-desc'] as { href: string }[])[0]!.href;
  const doc = (await (await fetchOk(descUrl)).json()) as OpenApiDocument;
  expect(doc.openapi).toMatch(/^3\.1\./);

  // 4. The sandbox server, and the oauth2 scheme whose token URL lives on it.
  const server = doc.servers.find((s) => /sandbox/i.test(s.description))!.url;
  expect(sandbox!.anchor).toMatch(new RegExp(`^${server}/`));
  const [schemeName, scheme] = Object.entries(doc.components.securitySchemes).find(
    ([, s]) => s.type === 'oauth2' && s.flows.clientCredentials.tokenUrl.startsWith(`${server}/`),
  )!;
  if (scheme.type !== 'oauth2') throw new Error('not an oauth2 scheme');
  // The document states the public sandbox client in the scheme's description.
  const [, clientId, clientSecret] = /client id and secret are both `([^`]+)`/.exec(scheme.description) ?? [];
  expect(clientId).toBeDefined();
  const secret = clientSecret ?? clientId!;

  // 5. The operation that needs this scheme, and the scope it asks for.
  const [path, op] = Object.entries(doc.paths)
    .map(([p, item]) => [p, item.get] as [string, OperationObject | undefined])
    .find(([, o]) => o?.security.some((r) => schemeName in r))!;
  const scope = op!.security.find((r) => schemeName in r)![schemeName]!.join(' ');

  // 6. A token from the sandbox token URL (client_secret_basic).
  const tokenResponse = await fetchOk(scheme.flows.clientCredentials.tokenUrl, {
    method: 'POST',
    headers: {
      authorization: `Basic ${Buffer.from(`${clientId}:${secret}`).toString('base64')}`,
      'content-type': 'application/x-www-form-urlencoded',
    },
    body: new URLSearchParams({ grant_type: 'client_credentials', scope }).toString(),
  });
  const { access_token: accessToken } = (await tokenResponse.json()) as { access_token: string };

  // 7. The statistics call, held to the document the agent fetched.
  const statsUrl = `${server}${path}`;
  requests += 1;
  const stats = await fetch(statsUrl, { headers: { authorization: `Bearer ${accessToken}` } });
  const text = await stats.text();
  expect(stats.status).toBe(200);
  const violations = responseViolations(
    { method: 'GET', path: new URL(statsUrl).pathname, status: stats.status, headers: stats.headers, body: JSON.parse(text), text },
    doc,
  );
  expect(violations).toEqual([]);
  console.log(`agent walk: ${requests} requests from / (Accept: text/markdown) to sandbox statistics`);
  expect(requests).toBeLessThanOrEqual(7);
});
