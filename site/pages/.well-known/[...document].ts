/** The discovery documents under /.well-known/, at the paths the contract derives (docs/openapi.md). */
import type { APIRoute, GetStaticPaths } from 'astro';
import { ENVIRONMENTS } from '../../../api/contract/enums.ts';
import { DISCOVERY_PATHS, MCP_PATH, authorizationServerMetadataPath, protectedResourceMetadataPath } from '../../../api/contract/paths.ts';
import { agentSkillsIndex, mcpServerCard } from '../../../api/docs/agents.ts';
import { API_CATALOG_CONTENT_TYPE, apiCatalog, authorizationServerMetadata, protectedResourceMetadata } from '../../../api/docs/discovery.ts';
import { jsonFile } from '../../../api/docs/respond.ts';
import { BASE_URL } from '../../lib/site-config.ts';
import { joinWaitlistSkill } from '../../lib/skill.ts';

type Document = { body: unknown; type?: string };

export const getStaticPaths = (() => {
  const documents: [string, Document][] = [
    [DISCOVERY_PATHS.apiCatalog, { body: apiCatalog(BASE_URL), type: API_CATALOG_CONTENT_TYPE }],
    [DISCOVERY_PATHS.mcpServerCard, { body: mcpServerCard(BASE_URL) }],
    [DISCOVERY_PATHS.agentSkills, { body: agentSkillsIndex(BASE_URL, joinWaitlistSkill()) }],
  ];
  for (const env of ENVIRONMENTS) {
    // The production issuer's path is also the folder of the sandbox issuer's document: its file
    // is written with .json, and the front serves it at the path without.
    const issuer = authorizationServerMetadataPath(env);
    documents.push([env === 'production' ? `${issuer}.json` : issuer, { body: authorizationServerMetadata(BASE_URL, env) }]);
    documents.push([protectedResourceMetadataPath(env), { body: protectedResourceMetadata(BASE_URL, env) }]);
    documents.push([protectedResourceMetadataPath(env, MCP_PATH), { body: protectedResourceMetadata(BASE_URL, env, 'mcp') }]);
  }
  return documents.map(([path, props]) => ({ params: { document: path.replace('/.well-known/', '') }, props }));
}) satisfies GetStaticPaths;

export const GET: APIRoute<Document> = ({ props }) => jsonFile(props.body, props.type);
