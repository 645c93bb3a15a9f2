// Expires is computed when the site is built: rebuild at least every few months (docs/site.md).
import type { APIRoute } from 'astro';
import { buildSecurityTxt } from '../../lib/security-txt.ts';
import { BASE_URL, SECURITY_CONTACT } from '../../lib/site-config.ts';

export const GET: APIRoute = () =>
  new Response(buildSecurityTxt(SECURITY_CONTACT, BASE_URL, new Date()), {
    headers: { 'Content-Type': 'text/plain; charset=utf-8' },
  });
