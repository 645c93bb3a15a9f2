// SEP-2127 MCP server card: both remotes (production and sandbox) with their protocol versions.
import type { APIRoute } from 'astro';
import { loadConfig } from '../../../../api/config.ts';
import { mcpServerCard } from '../../../../api/docs/agents.ts';
import { jsonFile } from '../../../../api/docs/respond.ts';

export const GET: APIRoute = () => jsonFile(mcpServerCard(loadConfig().BASE_URL));
