import type { APIRoute } from 'astro';
import { buildLlmsTxt } from '../lib/llms.ts';
import { getAllPages } from '../lib/pages.ts';
import { BASE_URL } from '../lib/site-config.ts';

export const GET: APIRoute = async () =>
  new Response(buildLlmsTxt(await getAllPages(), BASE_URL), { headers: { 'Content-Type': 'text/plain; charset=utf-8' } });
