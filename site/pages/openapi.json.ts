// /openapi.json: the OpenAPI 3.1 document, generated at build from the contract (api/docs/openapi.ts).
import type { APIRoute } from 'astro';
import { buildOpenApiDocument } from '../../api/docs/openapi.ts';
import { jsonFile } from '../../api/docs/respond.ts';
import { BASE_URL } from '../lib/site-config.ts';

export const GET: APIRoute = () => jsonFile(buildOpenApiDocument(BASE_URL));
