// RFC 9728 §3: metadata of the resource {base}/sandbox/api/mcp (the sandbox MCP endpoint).
import type { APIRoute } from 'astro';
import { loadConfig } from '../../../../../../api/config.ts';
import { protectedResourceMetadata } from '../../../../../../api/docs/discovery.ts';
import { jsonFile } from '../../../../../../api/docs/respond.ts';

export const GET: APIRoute = () => jsonFile(protectedResourceMetadata(loadConfig().BASE_URL, 'sandbox', 'mcp'));
