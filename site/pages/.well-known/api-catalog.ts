// RFC 9727 API catalog, written as the extensionless file dist/.well-known/api-catalog; the front
// serves it with API_CATALOG_CONTENT_TYPE and the api-catalog Link header.
import type { APIRoute } from 'astro';
import { loadConfig } from '../../../api/config.ts';
import { API_CATALOG_CONTENT_TYPE, apiCatalog } from '../../../api/docs/discovery.ts';
import { jsonFile } from '../../../api/docs/respond.ts';

export const GET: APIRoute = () => jsonFile(apiCatalog(loadConfig().BASE_URL), API_CATALOG_CONTENT_TYPE);
