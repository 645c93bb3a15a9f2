// /openapi.json: the OpenAPI 3.1 document, generated at build from the contract (api/docs/openapi.ts).
import type { APIRoute } from 'astro';
import { loadConfig } from '../../api/config.ts';
import { buildOpenApiDocument } from '../../api/docs/openapi.ts';
import { jsonFile } from '../../api/docs/respond.ts';

export const GET: APIRoute = () => jsonFile(buildOpenApiDocument(loadConfig().BASE_URL));
