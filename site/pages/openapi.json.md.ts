// /openapi.json.md: the Markdown twin of /openapi.json, built from the same document object.
import type { APIRoute } from 'astro';
import { environmentUrls } from '../../api/contract/paths.ts';
import { openApiMarkdown } from '../../api/docs/openapi-markdown.ts';
import { buildOpenApiDocument } from '../../api/docs/openapi.ts';
import { textFile } from '../../api/docs/respond.ts';
import { BASE_URL } from '../lib/site-config.ts';

export const GET: APIRoute = () =>
  textFile(openApiMarkdown(buildOpenApiDocument(BASE_URL), environmentUrls(BASE_URL, 'production').openapi), 'text/markdown; charset=utf-8');
