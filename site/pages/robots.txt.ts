import type { APIRoute } from 'astro';
import { textFile } from '../../api/docs/respond.ts';
import { AI_CRAWLERS, buildRobotsTxt } from '../lib/robots.ts';
import { BASE_URL, CONTENT_SIGNALS } from '../lib/site-config.ts';

export const GET: APIRoute = () => textFile(buildRobotsTxt(BASE_URL, CONTENT_SIGNALS, AI_CRAWLERS), 'text/plain; charset=utf-8');
