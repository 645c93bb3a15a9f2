import type { APIRoute } from 'astro';
import { getAllPages } from '../lib/pages.ts';
import { BASE_URL } from '../lib/site-config.ts';
import { buildSitemap } from '../lib/sitemap.ts';

export const GET: APIRoute = async () =>
  new Response(await buildSitemap(await getAllPages(), BASE_URL), { headers: { 'Content-Type': 'application/xml' } });
