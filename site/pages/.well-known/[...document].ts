/**
 * The discovery documents under /.well-known/ (api/docs/discovery.ts), at the paths the contract
 * derives: the RFC 9727 API catalog (an extensionless file; the front serves it with
 * API_CATALOG_CONTENT_TYPE), and per environment the RFC 8414 and RFC 9728 metadata, whose
 * well-known string goes before the issuer's or resource's path (RFC 8414 §3, RFC 9728 §3).
 */
import type { APIRoute, GetStaticPaths } from 'astro';
import { loadConfig } from '../../../api/config.ts';
import { ENVIRONMENTS } from '../../../api/contract/enums.ts';
import { DISCOVERY_PATHS, authorizationServerMetadataPath, protectedResourceMetadataPath } from '../../../api/contract/paths.ts';
import { API_CATALOG_CONTENT_TYPE, apiCatalog, authorizationServerMetadata, protectedResourceMetadata } from '../../../api/docs/discovery.ts';
import { jsonFile } from '../../../api/docs/respond.ts';

interface Document {
  body: unknown;
  type?: string;
}

export const getStaticPaths = (() => {
  const { BASE_URL } = loadConfig();
  const documents: [string, Document][] = [[DISCOVERY_PATHS.apiCatalog, { body: apiCatalog(BASE_URL), type: API_CATALOG_CONTENT_TYPE }]];
  for (const env of ENVIRONMENTS) {
    // The production issuer's path is also the folder of the sandbox issuer's document: its file
    // is written with .json, and the front serves it at the path without.
    const issuer = authorizationServerMetadataPath(env);
    documents.push([env === 'production' ? `${issuer}.json` : issuer, { body: authorizationServerMetadata(BASE_URL, env) }]);
    documents.push([protectedResourceMetadataPath(env), { body: protectedResourceMetadata(BASE_URL, env) }]);
  }
  return documents.map(([path, props]) => ({ params: { document: path.replace('/.well-known/', '') }, props }));
}) satisfies GetStaticPaths;

export const GET: APIRoute = ({ props }) => jsonFile((props as Document).body, (props as Document).type);
