import type { APIRoute } from 'astro';
import { AI_CRAWLERS, buildRobotsTxt } from '../lib/robots.ts';
import { BASE_URL, CONTENT_SIGNALS } from '../lib/site-config.ts';

export const GET: APIRoute = () => new Response(buildRobotsTxt(BASE_URL, CONTENT_SIGNALS, AI_CRAWLERS), { headers: { 'Content-Type': 'text/plain; charset=utf-8' } });
