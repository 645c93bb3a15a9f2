// Expires is computed when the site is built: rebuild at least every few months (docs/site.md).
import type { APIRoute } from 'astro';
import { textFile } from '../../../api/docs/respond.ts';
import { buildSecurityTxt } from '../../lib/security-txt.ts';
import { BASE_URL, SECURITY_CONTACT } from '../../lib/site-config.ts';

export const GET: APIRoute = () => textFile(buildSecurityTxt(SECURITY_CONTACT, BASE_URL, new Date()), 'text/plain; charset=utf-8');
