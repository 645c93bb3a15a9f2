import { describe, expect, it } from 'vitest';
import { ENVIRONMENTS, SCOPES, environmentUrls } from '../../api/contract/index.ts';
import {
  API_CATALOG_CONTENT_TYPE,
  apiCatalog,
  authorizationServerMetadata,
  protectedResourceMetadata,
} from '../../api/docs/discovery.ts';

const BASE = 'https://waitlist.example.net';

/** Every array anywhere in a document, with its JSON path. */
function arrays(value: unknown, path = '$'): [string, unknown[]][] {
  if (Array.isArray(value)) return [[path, value], ...value.flatMap((v, i) => arrays(v, `${path}[${i}]`))];
  if (value && typeof value === 'object') return Object.entries(value).flatMap(([k, v]) => arrays(v, `${path}.${k}`));
  return [];
}

/** Every string that looks like a URL, anywhere in a document. */
function urls(value: unknown): string[] {
  if (typeof value === 'string') return /^[a-z]+:\/\//.test(value) ? [value] : [];
  if (Array.isArray(value)) return value.flatMap(urls);
  if (value && typeof value === 'object') return Object.values(value).flatMap(urls);
  return [];
}

describe('api catalog (RFC 9727 / RFC 9264)', () => {
  const catalog = apiCatalog(BASE);

  it('the only top-level member is linkset; production and sandbox APIs, then their MCP endpoints, are the anchors', () => {
    expect(Object.keys(catalog)).toEqual(['linkset']);
    const urls = ENVIRONMENTS.map((env) => environmentUrls(BASE, env));
    expect(catalog.linkset.map((c) => c.anchor)).toEqual([...urls.map((u) => u.resource), ...urls.map((u) => u.mcp)]);
  });

  it.each(ENVIRONMENTS)('%s MCP endpoint: service-desc is the server card, service-meta its own protected resource metadata', (env) => {
    const urlsOf = environmentUrls(BASE, env);
    const context = catalog.linkset.find((c) => c.anchor === urlsOf.mcp)!;
    expect(context['service-desc']).toEqual([expect.objectContaining({ href: urlsOf.mcpServerCard, type: 'application/json' })]);
    expect(context['service-meta']).toEqual([expect.objectContaining({ href: urlsOf.mcpResourceMetadata })]);
  });

  it.each(ENVIRONMENTS)('%s: service-desc, service-doc (page and twin), status and service-meta point to the published URLs', (env) => {
    const urlsOf = environmentUrls(BASE, env);
    const context = catalog.linkset.find((c) => c.anchor === urlsOf.resource)!;
    expect(context['service-desc']).toEqual([expect.objectContaining({ href: urlsOf.openapi, type: 'application/json' })]);
    expect(context['service-doc']!.map((l) => [l.href, l.type])).toEqual([
      [urlsOf.guide, 'text/html'],
      [urlsOf.guideMarkdown, 'text/markdown'],
    ]);
    expect(context.status).toEqual([expect.objectContaining({ href: urlsOf.status, type: 'application/json' })]);
    expect(context['service-meta']).toEqual([expect.objectContaining({ href: urlsOf.protectedResourceMetadata })]);
  });

  it('every relation is an array of objects with an absolute href', () => {
    for (const context of catalog.linkset) {
      for (const [rel, targets] of Object.entries(context)) {
        if (rel === 'anchor') continue;
        expect(Array.isArray(targets)).toBe(true);
        for (const target of targets as { href: string }[]) expect(target.href.startsWith(`${BASE}/`)).toBe(true);
      }
    }
  });

  it('the content type is linkset+json with the RFC 9727 profile', () => {
    expect(API_CATALOG_CONTENT_TYPE).toBe('application/linkset+json; profile="https://www.rfc-editor.org/info/rfc9727"');
  });
});

describe('authorization server metadata (RFC 8414)', () => {
  it.each(ENVIRONMENTS)('%s: issuer is exactly the environment base, token endpoint under it', (env) => {
    const urlsOf = environmentUrls(BASE, env);
    const metadata = authorizationServerMetadata(BASE, env);
    expect(metadata.issuer).toBe(env === 'production' ? BASE : `${BASE}/sandbox`);
    expect(metadata.token_endpoint).toBe(urlsOf.token);
    expect(metadata.grant_types_supported).toEqual(['client_credentials']);
    expect(metadata.token_endpoint_auth_methods_supported).toEqual(['client_secret_basic', 'client_secret_post']);
    expect(metadata.scopes_supported).toEqual([...SCOPES]);
    expect(metadata.service_documentation).toBe(urlsOf.guide);
    expect(metadata.protected_resources).toEqual([urlsOf.resource, urlsOf.mcp]);
  });

  it.each(ENVIRONMENTS)('%s: response_types_supported is present (RFC 8414 §2 REQUIRED) and empty: there is no authorization endpoint', (env) => {
    const metadata = authorizationServerMetadata(BASE, env) as unknown as Record<string, unknown>;
    expect(metadata.response_types_supported).toEqual([]);
    for (const field of ['jwks_uri', 'authorization_endpoint']) expect(metadata).not.toHaveProperty(field);
  });

});

describe('protected resource metadata (RFC 9728)', () => {
  it.each(ENVIRONMENTS)('%s: resource is exactly base (+ /sandbox) + /api/v1; its issuer is the authorization server', (env) => {
    const metadata = protectedResourceMetadata(BASE, env);
    expect(metadata.resource).toBe(env === 'production' ? `${BASE}/api/v1` : `${BASE}/sandbox/api/v1`);
    expect(metadata.authorization_servers).toEqual([authorizationServerMetadata(BASE, env).issuer]);
    expect(metadata.scopes_supported).toEqual([...SCOPES]);
    expect(metadata.bearer_methods_supported).toEqual(['header']);
    expect(metadata.resource_name.length).toBeGreaterThan(0);
    expect(metadata.resource_documentation).toBe(environmentUrls(BASE, env).guide);
  });

  it('the sandbox and production documents name different resources and issuers', () => {
    const [a, b] = ENVIRONMENTS.map((env) => protectedResourceMetadata(BASE, env));
    expect(a!.resource).not.toBe(b!.resource);
    expect(a!.authorization_servers).not.toEqual(b!.authorization_servers);
  });
});

describe('every discovery document', () => {
  const documents = {
    catalog: apiCatalog(BASE),
    ...Object.fromEntries(ENVIRONMENTS.flatMap((env) => [
      [`as-${env}`, authorizationServerMetadata(BASE, env)],
      [`pr-${env}`, protectedResourceMetadata(BASE, env)],
      [`pr-mcp-${env}`, protectedResourceMetadata(BASE, env, 'mcp')],
    ])),
  };

  it.each(Object.entries(documents))('%s: has no empty array (RFC 8414 §3.2, RFC 9728 §3.2) but the REQUIRED response_types_supported', (_, document) => {
    const empty = arrays(document).filter(([, array]) => array.length === 0).map(([path]) => path);
    expect(empty.filter((path) => path !== '$.response_types_supported')).toEqual([]);
  });

  it.each(Object.entries(documents))('%s: every URL is absolute and under the base URL', (_, document) => {
    for (const url of urls(document)) expect(url === BASE || url.startsWith(`${BASE}/`), url).toBe(true);
  });
});
