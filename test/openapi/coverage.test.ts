/**
 * The document and the sidecar describe the same API: the (method, path) pairs the document lists,
 * under both servers, equal the ones the sidecar's router really serves.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MCP_PATH } from '../../api/contract/index.ts';
import { buildOpenApiDocument } from '../../api/docs/openapi.ts';
import type { OpenApiDocument } from '../../api/docs/openapi.ts';
import { BASE_URL, harness, servedRoutes, type Harness } from '../api/support/harness.ts';

/** Every (method, path) of the document on every server; HEAD is an operation of its own (docs/openapi.md). */
function documented(doc: OpenApiDocument): string[] {
  const pairs: string[] = [];
  for (const server of doc.servers) {
    const prefix = new URL(server.url).pathname.replace(/\/$/, '');
    for (const [path, item] of Object.entries(doc.paths)) {
      for (const method of Object.keys(item)) {
        const upper = method.toUpperCase();
        pairs.push(`${upper} ${prefix}${path}`);
      }
    }
  }
  return pairs.sort();
}

/** The API's routes the sidecar serves; the MCP endpoint is described by its server card, not the document. */
function servedApi(h: Harness): string[] {
  return servedRoutes(h.app)
    .filter((r) => !r.path.endsWith(MCP_PATH))
    .map((r) => `${r.method.toUpperCase()} ${r.path}`)
    .sort();
}

describe('route coverage: document vs sidecar', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await harness();
  });
  afterAll(async () => {
    await h.close();
  });

  it('every route the sidecar serves is in the document, and the document lists no route it does not serve', () => {
    const served = servedApi(h);
    expect(served.length).toBeGreaterThan(0);
    expect(documented(buildOpenApiDocument(BASE_URL))).toEqual(served);
  });

  it('the comparison is live: a document without one operation no longer matches', () => {
    const doc = buildOpenApiDocument(BASE_URL);
    const [first] = Object.keys(doc.paths);
    delete doc.paths[first!];
    const served = servedApi(h);
    expect(documented(doc)).not.toEqual(served);
  });
});
