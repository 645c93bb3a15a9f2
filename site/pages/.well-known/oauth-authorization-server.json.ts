// RFC 8414 metadata of the production issuer. Written as oauth-authorization-server.json because
// the folder oauth-authorization-server/ holds the sandbox document; the front serves this file at
// /.well-known/oauth-authorization-server.
import type { APIRoute } from 'astro';
import { loadConfig } from '../../../api/config.ts';
import { authorizationServerMetadata } from '../../../api/docs/discovery.ts';
import { jsonFile } from '../../../api/docs/respond.ts';

export const GET: APIRoute = () => jsonFile(authorizationServerMetadata(loadConfig().BASE_URL, 'production'));
