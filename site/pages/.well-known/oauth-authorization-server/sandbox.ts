// RFC 8414 §3: metadata of the issuer {base}/sandbox, at the well-known string inserted before its path.
import type { APIRoute } from 'astro';
import { loadConfig } from '../../../../api/config.ts';
import { authorizationServerMetadata } from '../../../../api/docs/discovery.ts';
import { jsonFile } from '../../../../api/docs/respond.ts';

export const GET: APIRoute = () => jsonFile(authorizationServerMetadata(loadConfig().BASE_URL, 'sandbox'));
