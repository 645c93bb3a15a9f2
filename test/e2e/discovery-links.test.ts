/**
 * What the running service publishes: the discovery documents are exactly the generators' output
 * for the built base URL, served with their media types, and every URL in them answers 200.
 */
import { describe, expect, inject, it } from 'vitest';
import {
  ENVIRONMENTS,
  PAGE_PATHS,
  SANDBOX_CLIENT_ID,
  SANDBOX_CLIENT_SECRET,
  environmentUrls,
  twinPath,
  type Environment,
} from '../../api/contract/index.ts';
import {
  API_CATALOG_CONTENT_TYPE,
  apiCatalog,
  authorizationServerMetadata,
  protectedResourceMetadata,
} from '../../api/docs/discovery.ts';
import { openApiMarkdown } from '../../api/docs/openapi-markdown.ts';
import { buildOpenApiDocument } from '../../api/docs/openapi.ts';
import { send } from '../support/request.ts';

const stack = inject('stack');
const base = stack.baseUrl;
const production = environmentUrls(base, 'production');

async function get(url: string, init: RequestInit = {}): Promise<Response> {
  // No redirects: documented URLs answer themselves (standards.md G11).
  return fetch(url, { redirect: 'manual', ...init });
}

/** `Link: <target>; rel="api-catalog"` (RFC 9727 §2), target resolved against the base URL. */
function apiCatalogLink(response: Response): string | undefined {
  const header = response.headers.get('link') ?? '';
  const match = /<([^>]+)>\s*;[^,]*\brel="?api-catalog"?/.exec(header);
  return match ? new URL(match[1]!, base).href : undefined;
}

describe('published documents equal the generators', () => {
  it('/openapi.json is the document generated for the built base URL', async () => {
    const response = await get(production.openapi);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/(vnd\.oai\.openapi\+)?json/);
    expect(await response.json()).toEqual(JSON.parse(JSON.stringify(buildOpenApiDocument(base))));
  });

  it('/openapi.json.md is its Markdown twin: text/markdown with a canonical link to /openapi.json', async () => {
    const response = await get(production.openapiMarkdown);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/markdown; charset=utf-8');
    expect(response.headers.get('link')).toMatch(/<[^>]*\/openapi\.json>;\s*rel="canonical"/);
    expect(await response.text()).toBe(openApiMarkdown(buildOpenApiDocument(base), production.openapi));
  });

  it.each(['GET', 'HEAD'])('%s /.well-known/api-catalog: linkset+json with the RFC 9727 profile and the api-catalog Link', async (method) => {
    const response = await get(production.apiCatalog, { method });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe(API_CATALOG_CONTENT_TYPE);
    expect(apiCatalogLink(response)).toBe(production.apiCatalog);
    const text = await response.text();
    if (method === 'HEAD') expect(text).toBe('');
    else expect(JSON.parse(text)).toEqual(apiCatalog(base));
  });

  it.each(ENVIRONMENTS)('%s: RFC 8414 and RFC 9728 metadata are served as application/json at the well-known paths', async (env) => {
    const urls = environmentUrls(base, env);
    for (const [url, expected] of [
      [urls.authorizationServerMetadata, authorizationServerMetadata(base, env)],
      [urls.protectedResourceMetadata, protectedResourceMetadata(base, env)],
    ] as const) {
      const response = await get(url);
      expect(response.status, url).toBe(200);
      expect(response.headers.get('content-type')).toMatch(/^application\/json/);
      expect(await response.json()).toEqual(expected);
    }
  });

  it('the home page carries the api-catalog Link', async () => {
    const response = await get(`${base}/`);
    expect(response.status).toBe(200);
    expect(apiCatalogLink(response)).toBe(production.apiCatalog);
  });
});

describe('every published URL answers', () => {
  /** Issuer identifiers are names, not pages: they resolve through their RFC 8414 document. */
  function issuerMetadataUrl(issuer: string): string {
    const env = ENVIRONMENTS.find((e) => environmentUrls(base, e).issuer === issuer);
    if (!env) throw new Error(`unknown issuer ${issuer}`);
    return environmentUrls(base, env).authorizationServerMetadata;
  }

  async function tokenRequest(env: Environment, tokenEndpoint: string): Promise<Response> {
    const sandbox = `Basic ${Buffer.from(`${SANDBOX_CLIENT_ID}:${SANDBOX_CLIENT_SECRET}`).toString('base64')}`;
    // Production clients are made by the operator: discovery-oauth.test.ts gets its 200 with one,
    // through this same token_endpoint. Here, without one, it must answer its documented 401.
    return fetch(tokenEndpoint, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...(env === 'sandbox' ? { authorization: sandbox } : {}) },
      body: 'grant_type=client_credentials',
    });
  }

  it('every anchor and href in the catalog -> 200 (an MCP endpoint: POST only, so GET -> 405)', async () => {
    const mcp = ENVIRONMENTS.map((env) => environmentUrls(base, env).mcp);
    for (const url of mcp) expect((await get(url)).status, url).toBe(405);
    const targets = apiCatalog(base).linkset.flatMap((context) => [
      ...(mcp.includes(context.anchor) ? [] : [context.anchor]),
      ...Object.entries(context).flatMap(([rel, links]) => (rel === 'anchor' ? [] : (links as { href: string }[]).map((l) => l.href))),
    ]);
    for (const url of new Set(targets)) expect((await get(url)).status, url).toBe(200);
  });

  it.each(ENVIRONMENTS)('%s: every URL in the RFC 8414 and RFC 9728 documents -> 200 (token endpoint: a grant)', async (env) => {
    const as = authorizationServerMetadata(base, env);
    const pr = protectedResourceMetadata(base, env);
    const mcp = environmentUrls(base, env).mcp;
    const pages = [as.service_documentation, ...as.protected_resources.filter((url) => url !== mcp), pr.resource, pr.resource_documentation];
    for (const url of pages) expect((await get(url)).status, url).toBe(200);
    for (const issuer of [as.issuer, ...pr.authorization_servers]) expect((await get(issuerMetadataUrl(issuer))).status, issuer).toBe(200);
    const token = await tokenRequest(env, as.token_endpoint);
    expect(token.status).toBe(env === 'sandbox' ? 200 : 401);
  });
});

describe('the index, the status probe, llms.txt and the catalog point to the same URLs', () => {
  it.each(ENVIRONMENTS)('%s: /api/v1 links the OpenAPI document, the catalog and both metadata documents', async (env) => {
    const urls = environmentUrls(base, env);
    const index = await send(base, urls.index);
    expect(index.status).toBe(200);
    expect(index.body.links).toMatchObject({
      openapi: urls.openapi,
      openapiMarkdown: urls.openapiMarkdown,
      apiCatalog: urls.apiCatalog,
      authorizationServerMetadata: urls.authorizationServerMetadata,
      protectedResourceMetadata: urls.protectedResourceMetadata,
      guide: urls.guide,
      token: urls.token,
    });
    const catalogEntry = apiCatalog(base).linkset.find((c) => c.anchor === urls.resource)!;
    expect(catalogEntry['service-desc'][0]!.href).toBe(index.body.links.openapi);
    expect(catalogEntry['service-meta'][0]!.href).toBe(index.body.links.protectedResourceMetadata);
  });

  it.each(ENVIRONMENTS)('%s: the status probe points to the guide and the OpenAPI document', async (env) => {
    const urls = environmentUrls(base, env);
    const status = await send(base, urls.status);
    expect(status.body).toMatchObject({ environment: env, docs: urls.guide, openapi: urls.openapi });
  });

  it('llms.txt links the OpenAPI document, its twin, the catalog and every metadata document', async () => {
    const text = await (await get(`${base}/llms.txt`)).text();
    for (const env of ENVIRONMENTS) {
      const urls = environmentUrls(base, env);
      for (const url of [urls.openapi, urls.openapiMarkdown, urls.apiCatalog, urls.authorizationServerMetadata, urls.protectedResourceMetadata]) {
        expect(text).toContain(`](${url})`);
      }
    }
  });

  it('the guide links the API reference page, which has a Markdown twin', async () => {
    const guide = await (await get(production.guide)).text();
    expect([`href="${PAGE_PATHS.reference.en}"`, `href="${production.reference}"`].some((href) => guide.includes(href))).toBe(true);
    for (const path of Object.values(PAGE_PATHS.reference)) {
      expect((await get(`${base}${path}`)).status, path).toBe(200);
      expect((await get(`${base}${twinPath(path)}`)).status, path).toBe(200);
    }
  });
});
